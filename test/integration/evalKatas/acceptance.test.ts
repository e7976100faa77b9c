import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { EVAL_DIR, type EvalSetEntry } from '../../../scripts/generate-eval-katas';
import { loadKata } from '../../../src/core/tdd/kata';
import { scaffoldProject } from '../../../src/core/tdd/scaffold';
import { requireGo } from '../../support/goToolchain';
import { requireMaven } from '../../support/javaToolchain';
import { requirePhpunit } from '../../support/phpToolchain';
import { requireRspec } from '../../support/rubyToolchain';
import { requireCargo } from '../../support/rustToolchain';

// The eval set's acceptance tests, run the way the eval runner runs them on a session's final commit: in a project
// scaffolded for the kata, the test file copied to acceptance/, `node --test acceptance/<slug>.test.js` or
// `python3 -m pytest acceptance -p no:cacheprovider` (pytest without the machine's plugins: test/support/pytestWithoutPlugins.ts).
// The reference solution (test/fixtures/eval-solutions) passes every case; an empty module fails them all. In Go the
// file goes beside the code at the module's root (it is in the kata's package) and runs with `go test -run
// ^TestAcceptance -v .`; a package without the functions does not build. In Ruby the spec goes to acceptance/ and
// runs with `rspec acceptance/<slug>_spec.rb`, the code in lib/; a module without the methods fails every example.
// In PHP the test goes to acceptance/ and runs with `phpunit acceptance/<Class>AcceptanceTest.php`, the class in src/;
// a class without the methods errors in every case. In Rust the file is an integration test, copied to tests/<crate>.rs
// and run with `cargo test --test <crate>` (offline, one target folder for every kata); a crate without the functions
// does not build. In Java the class goes to src/test/java/kata/ beside the code's src/main/java/kata/<Class>.java, all
// fifteen in one Maven project run once with `mvn -o -B test`; a class whose methods throw fails every case.

const SOLUTIONS = join(__dirname, '..', '..', 'fixtures', 'eval-solutions');
const LANGUAGES = ['javascript', 'python'] as const;
type Language = (typeof LANGUAGES)[number];

const run = (command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> =>
  new Promise((done) => {
    execFile(command, args, { cwd, timeout: 60_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, output: `${stdout}${stderr}` });
    });
  });

/** Runs the acceptance test `file` (in acceptance/); passed and failed counts from the runner's own summary. */
async function acceptance(
  language: Language,
  dir: string,
  file: string,
): Promise<{ code: number; passed: number; failed: number; output: string }> {
  const result =
    language === 'javascript'
      ? await run(process.execPath, ['--test', `acceptance/${file}`], dir) // a folder argument works on Node 20 only
      : await run('python3', ['-m', 'pytest', 'acceptance', '-p', 'no:cacheprovider'], dir);
  const count = (pattern: RegExp): number => Number(pattern.exec(result.output)?.[1] ?? 0);
  return language === 'javascript'
    ? { ...result, passed: count(/^(?:#|ℹ) pass (\d+)$/m), failed: count(/^(?:#|ℹ) fail (\d+)$/m) }
    : { ...result, passed: count(/(\d+) passed/), failed: count(/(\d+) failed/) + count(/(\d+) errors?\b/) };
}

describe('the eval katas: acceptance tests against the reference solutions', function () {
  this.timeout(300_000); // every kata twice, on a shared 2-core machine: about 40 s alone, over 120 s under load
  const set = JSON.parse(readFileSync(join(EVAL_DIR, 'set.json'), 'utf8')) as EvalSetEntry[];
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  for (const language of LANGUAGES) {
    it(`${language}: every kata's reference solution passes all its cases, an empty module fails them`, async () => {
      const ext = language === 'javascript' ? 'js' : 'py';
      for (const entry of set) {
        const { module, acceptance: file, cases } = entry.languages[language];
        const dir = await mkdtemp(join(tmpdir(), `tdd-eval-${entry.slug}-`));
        dirs.push(dir);
        const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language });
        await scaffoldProject(dir, language, kata);
        await mkdir(join(dir, 'acceptance'));
        await copyFile(join(EVAL_DIR, file), join(dir, 'acceptance', basename(file)));
        const source = join(dir, kata.sourceDir, `${module}.${ext}`);
        await writeFile(source, await readFile(join(SOLUTIONS, language, `${module}.${ext}`)));

        const good = await acceptance(language, dir, basename(file));
        assert.equal(good.code, 0, `${entry.slug} (${language}) with the reference solution:\n${good.output}`);
        assert.deepEqual([good.passed, good.failed], [cases, 0], `${entry.slug} (${language}):\n${good.output}`);

        await writeFile(source, '');
        const empty = await acceptance(language, dir, basename(file));
        assert.notEqual(empty.code, 0, `${entry.slug} (${language}) with an empty module passed:\n${empty.output}`);
        assert.equal(empty.passed, 0, `${entry.slug} (${language}) with an empty module:\n${empty.output}`);
        assert.ok(empty.failed > 0, `${entry.slug} (${language}) with an empty module:\n${empty.output}`);
      }
    });
  }

  it("go: every kata's reference solution passes all its cases, a package without the functions does not build", async function () {
    requireGo(this);
    const offline = { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
    const goTest = (dir: string): Promise<{ code: number; output: string }> =>
      new Promise((done) => {
        execFile(
          'go',
          ['test', '-run', '^TestAcceptance', '-v', '.'],
          { cwd: dir, env: offline, timeout: 120_000 },
          (error, stdout, stderr) =>
            done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
        );
      });
    const count = (output: string, verdict: string): number =>
      [...output.matchAll(new RegExp(`^\\s+--- ${verdict}: TestAcceptance\\w+/`, 'gm'))].length;
    const goSet = set.filter((entry) => entry.languages.go);
    assert.ok(goSet.length >= 12, `${goSet.length} katas in Go`);
    for (const entry of goSet) {
      const { module, acceptance: file, cases } = entry.languages.go!;
      const dir = await mkdtemp(join(tmpdir(), `tdd-eval-go-${entry.slug}-`));
      dirs.push(dir);
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'go' });
      await scaffoldProject(dir, 'go', kata);
      await copyFile(join(EVAL_DIR, file), join(dir, basename(file)));
      await writeFile(join(dir, `${module}.go`), await readFile(join(SOLUTIONS, 'go', `${module}.go`)));

      const good = await goTest(dir);
      assert.equal(good.code, 0, `${entry.slug} (go) with the reference solution:\n${good.output}`);
      assert.deepEqual(
        [count(good.output, 'PASS'), count(good.output, 'FAIL')],
        [cases, 0],
        `${entry.slug} (go):\n${good.output}`,
      );

      await writeFile(join(dir, `${module}.go`), `package ${module}\n`);
      const empty = await goTest(dir);
      assert.notEqual(empty.code, 0, `${entry.slug} (go) without the functions passed:\n${empty.output}`);
      assert.match(empty.output, /undefined: /, `${entry.slug} (go) without the functions:\n${empty.output}`);
      assert.equal(count(empty.output, 'PASS'), 0);
    }
  });

  it("ruby: every kata's reference solution passes all its examples, a module without the methods fails them", async function () {
    requireRspec(this);
    const rspec = async (
      dir: string,
      file: string,
    ): Promise<{ code: number; passed: number; failed: number; output: string }> => {
      const result = await run('rspec', [`acceptance/${file}`], dir);
      const summary = /^(\d+) examples?, (\d+) failures?/m.exec(result.output);
      const [total, failed] = [Number(summary?.[1] ?? 0), Number(summary?.[2] ?? 0)];
      return { ...result, passed: total - failed, failed };
    };
    const rubySet = set.filter((entry) => entry.languages.ruby);
    assert.ok(rubySet.length >= 12, `${rubySet.length} katas in Ruby`);
    for (const entry of rubySet) {
      const { module, exports, acceptance: file, cases } = entry.languages.ruby!;
      const dir = await mkdtemp(join(tmpdir(), `tdd-eval-ruby-${entry.slug}-`));
      dirs.push(dir);
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'ruby' });
      await scaffoldProject(dir, 'ruby', kata);
      await mkdir(join(dir, 'acceptance'), { recursive: true });
      await mkdir(join(dir, 'lib'), { recursive: true });
      await copyFile(join(EVAL_DIR, file), join(dir, 'acceptance', basename(file)));
      const source = join(dir, 'lib', `${module}.rb`);
      await writeFile(source, await readFile(join(SOLUTIONS, 'ruby', `${module}.rb`)));

      const good = await rspec(dir, basename(file));
      assert.equal(good.code, 0, `${entry.slug} (ruby) with the reference solution:\n${good.output}`);
      assert.deepEqual([good.passed, good.failed], [cases, 0], `${entry.slug} (ruby):\n${good.output}`);

      await writeFile(source, `module ${exports[0].split('.')[0]}\nend\n`);
      const empty = await rspec(dir, basename(file));
      assert.notEqual(empty.code, 0, `${entry.slug} (ruby) without the methods passed:\n${empty.output}`);
      assert.deepEqual([empty.passed, empty.failed], [0, cases], `${entry.slug} (ruby) without the methods:\n${empty.output}`);
      assert.match(empty.output, /NoMethodError/);
    }
  });

  it("php: every kata's reference solution passes all its cases, a class without the methods errors in them", async function () {
    requirePhpunit(this);
    const phpunit = async (
      dir: string,
      file: string,
    ): Promise<{ code: number; passed: number; failed: number; output: string }> => {
      const result = await run('phpunit', [`acceptance/${file}`], dir);
      const ok = /^OK \((\d+) tests?,/m.exec(result.output);
      const bad = /^Tests: (\d+), Assertions: \d+(?:, Errors: (\d+))?(?:, Failures: (\d+))?/m.exec(result.output);
      if (ok) return { ...result, passed: Number(ok[1]), failed: 0 };
      const failed = Number(bad?.[2] ?? 0) + Number(bad?.[3] ?? 0);
      return { ...result, passed: Number(bad?.[1] ?? 0) - failed, failed };
    };
    const phpSet = set.filter((entry) => entry.languages.php);
    assert.ok(phpSet.length >= 12, `${phpSet.length} katas in PHP`);
    for (const entry of phpSet) {
      const { module, acceptance: file, cases } = entry.languages.php!;
      const dir = await mkdtemp(join(tmpdir(), `tdd-eval-php-${entry.slug}-`));
      dirs.push(dir);
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'php' });
      await scaffoldProject(dir, 'php', kata);
      await mkdir(join(dir, 'acceptance'), { recursive: true });
      await mkdir(join(dir, 'src'), { recursive: true });
      await copyFile(join(EVAL_DIR, file), join(dir, 'acceptance', basename(file)));
      const source = join(dir, 'src', `${module}.php`);
      await writeFile(source, await readFile(join(SOLUTIONS, 'php', `${module}.php`)));

      const good = await phpunit(dir, basename(file));
      assert.equal(good.code, 0, `${entry.slug} (php) with the reference solution:\n${good.output}`);
      assert.deepEqual([good.passed, good.failed], [cases, 0], `${entry.slug} (php):\n${good.output}`);

      await writeFile(source, `<?php\n\nfinal class ${module}\n{\n}\n`);
      const empty = await phpunit(dir, basename(file));
      assert.notEqual(empty.code, 0, `${entry.slug} (php) without the methods passed:\n${empty.output}`);
      assert.deepEqual([empty.passed, empty.failed], [0, cases], `${entry.slug} (php) without the methods:\n${empty.output}`);
      assert.match(empty.output, /Call to undefined method/);
    }
  });

  it("rust: every kata's reference solution passes all its cases, a crate without the functions does not build", async function () {
    requireCargo(this);
    // One target folder for every kata: the crates share nothing but the std, and the builds are the slow part.
    const target = await mkdtemp(join(tmpdir(), 'tdd-eval-rust-target-'));
    dirs.push(target);
    const env = { ...process.env, CARGO_NET_OFFLINE: 'true', CARGO_TARGET_DIR: target, CARGO_TERM_COLOR: 'never' };
    const cargoTest = (dir: string, name: string): Promise<{ code: number; passed: number; failed: number; output: string }> =>
      new Promise((done) => {
        execFile('cargo', ['test', '--test', name], { cwd: dir, env, timeout: 240_000 }, (error, stdout, stderr) => {
          const output = `${stdout}${stderr}`;
          const count = (verdict: string): number =>
            [...output.matchAll(new RegExp(`^test \\w+ \\.\\.\\. ${verdict}$`, 'gm'))].length;
          done({
            code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
            passed: count('ok'),
            failed: count('FAILED'),
            output,
          });
        });
      });
    const rustSet = set.filter((entry) => entry.languages.rust);
    assert.ok(rustSet.length >= 12, `${rustSet.length} katas in Rust`);
    for (const entry of rustSet) {
      const { module, acceptance: file, cases } = entry.languages.rust!;
      const dir = await mkdtemp(join(tmpdir(), `tdd-eval-rust-${entry.slug}-`));
      dirs.push(dir);
      const kata = await loadKata(join(EVAL_DIR, `${entry.slug}.md`), { language: 'rust' });
      await scaffoldProject(dir, 'rust', kata);
      await mkdir(join(dir, 'tests'), { recursive: true });
      await copyFile(join(EVAL_DIR, file), join(dir, 'tests', basename(file)));
      const source = join(dir, 'src', 'lib.rs');
      await writeFile(source, await readFile(join(SOLUTIONS, 'rust', `${module}.rs`)));

      const good = await cargoTest(dir, module);
      assert.equal(good.code, 0, `${entry.slug} (rust) with the reference solution:\n${good.output}`);
      assert.deepEqual([good.passed, good.failed], [cases, 0], `${entry.slug} (rust):\n${good.output}`);

      await writeFile(source, '');
      const empty = await cargoTest(dir, module);
      assert.notEqual(empty.code, 0, `${entry.slug} (rust) without the functions passed:\n${empty.output}`);
      assert.match(empty.output, /unresolved import/, `${entry.slug} (rust) without the functions:\n${empty.output}`);
      assert.equal(empty.passed, 0);
    }
  });

  it("java: every kata's reference solution passes all its cases, a class whose methods throw fails every one", async function () {
    requireMaven(this);
    const javaSet = set.filter((entry) => entry.languages.java);
    assert.ok(javaSet.length >= 12, `${javaSet.length} katas in Java`);
    // One Maven project holds every kata's class and acceptance class (all in package kata): two runs of Maven, not
    // thirty, on a shared 2-core machine. Each class's report is its own TEST-kata.<Class>AcceptanceTest.xml.
    const dir = await mkdtemp(join(tmpdir(), 'tdd-eval-java-'));
    dirs.push(dir);
    await scaffoldProject(dir, 'java', await loadKata(join(EVAL_DIR, `${javaSet[0]!.slug}.md`), { language: 'java' }));
    await mkdir(join(dir, 'src', 'main', 'java', 'kata'), { recursive: true });
    await mkdir(join(dir, 'src', 'test', 'java', 'kata'), { recursive: true });
    const references = new Map<string, string>();
    for (const entry of javaSet) {
      const { module, acceptance: file } = entry.languages.java!;
      await copyFile(join(EVAL_DIR, file), join(dir, 'src', 'test', 'java', 'kata', basename(file)));
      references.set(module, await readFile(join(SOLUTIONS, 'java', `${module}.java`), 'utf8'));
    }
    const maven = async (classes: (module: string, reference: string) => string): Promise<string> => {
      for (const [module, reference] of references)
        await writeFile(join(dir, 'src', 'main', 'java', 'kata', `${module}.java`), classes(module, reference));
      // Maven compiles thirty classes and runs fifteen: more than run()'s minute on a loaded machine.
      return new Promise((done) =>
        execFile('mvn', ['-o', '-B', 'test'], { cwd: dir, timeout: 300_000, maxBuffer: 16 << 20 }, (_, stdout, stderr) =>
          done(`${stdout}${stderr}`),
        ),
      );
    };
    /** [passed, failed] of a class from its Surefire report (failures and errors both fail). */
    const counts = async (module: string): Promise<[number, number]> => {
      const report = await readFile(join(dir, 'target', 'surefire-reports', `TEST-kata.${module}AcceptanceTest.xml`), 'utf8');
      const suite = /<testsuite [^>]*>/.exec(report)![0];
      const count = (name: string): number => Number(new RegExp(` ${name}="(\\d+)"`).exec(suite)![1]);
      const failed = count('failures') + count('errors');
      return [count('tests') - failed - count('skipped'), failed];
    };

    const good = await maven((_, reference) => reference);
    assert.match(good, /BUILD SUCCESS/, good);
    for (const entry of javaSet) {
      const { module, cases } = entry.languages.java!;
      assert.deepEqual(await counts(module), [cases, 0], `${entry.slug} (java) with the reference solution:\n${good}`);
    }

    // Each static method of the reference, its body a throw: the class compiles and every case fails.
    const throwing = (module: string, reference: string): string =>
      reference.replace(
        /^( {4}public static [^\n]+ \{\n)[\s\S]*?^ {4}\}$/gm,
        '$1        throw new UnsupportedOperationException();\n    }',
      );
    const empty = await maven(throwing);
    assert.match(empty, /BUILD FAILURE/, empty);
    for (const entry of javaSet) {
      const { module, cases } = entry.languages.java!;
      assert.deepEqual(await counts(module), [0, cases], `${entry.slug} (java) with methods that throw:\n${empty}`);
    }
  });
});
