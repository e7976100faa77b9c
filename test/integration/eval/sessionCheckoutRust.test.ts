import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { simpleGit } from 'simple-git';
import { bundledEvalSetDir, loadEvalSet, SessionCheckout } from '../../../src/core/eval';
import { requireCargo } from '../../support/rustToolchain';

const LEAP = readFileSync(resolve(__dirname, '..', '..', 'fixtures', 'eval-solutions', 'rust', 'leap.rs'), 'utf8');
// The session's own tests: one inline, one in tests/; neither is the held-back file's, so neither may count.
const INLINE =
  '\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn own_inline_test() {\n        assert!(super::is_leap_year(2000));\n    }\n}\n';
const OWN = 'use leap::is_leap_year;\n\n#[test]\nfn own_test() {\n    assert!(!is_leap_year(1900));\n}\n';

describe('eval: a checkout of a Rust session’s commits, with the real cargo in the sandbox', function () {
  this.timeout(300_000); // a handful of cold builds of a tiny crate on a shared 2-core machine
  let dir: string;
  before(function () {
    requireCargo(this);
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eval-checkout-rust-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function commit(repo: string, files: Record<string, string>, message: string): Promise<string> {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(repo, path)), { recursive: true });
      await writeFile(join(repo, path), content);
    }
    const git = simpleGit(repo);
    await git.add('.');
    await git.commit(message);
    return (await git.revparse(['HEAD'])).trim();
  }

  it('runs tests/<crate>.rs alone: the cases by name, the session’s own tests neither built nor counted, one target folder beside the checkout', async () => {
    const repo = join(dir, 'repository');
    await mkdir(repo);
    const git = simpleGit(repo);
    await git.raw(['init', '-q', '-b', 'main']);
    await git.addConfig('user.name', 'Test').addConfig('user.email', 'test@example.invalid');
    const manifest = '[package]\nname = "leap"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n';
    const scaffold = await commit(repo, { 'Cargo.toml': manifest, 'src/lib.rs': '', '.gitignore': '/target\n' }, 'scaffold');
    const green = await commit(repo, { 'src/lib.rs': LEAP + INLINE, 'tests/leap.rs': OWN }, 'green');
    const red = await commit(
      repo,
      {
        'src/lib.rs': 'pub fn is_leap_year(year: u64) -> bool {\n    year % 4 == 0\n}\n',
        'tests/leap.rs': 'use leap::is_leap_year;\n',
      },
      'red',
    );

    const set = await loadEvalSet(bundledEvalSetDir()!);
    const leap = set.exercises.find((e) => e.slug === 'leap')!.languages.rust!;
    const checkoutDir = join(dir, 'checkout');
    const checkout = await SessionCheckout.open(repo, checkoutDir, green);
    try {
      const replay = await checkout.replayCommits([scaffold, green], 'cargo test');
      assert.deepEqual(replay.red, [], 'the scaffold has no tests yet; green passes its own two');

      const passed = await checkout.runAcceptance(green, set.dir, 'rust', leap);
      assert.deepEqual([passed.passed, passed.total, passed.status], [9, 9, 'passed'], JSON.stringify(passed));

      const failed = await checkout.runAcceptance(red, set.dir, 'rust', leap);
      assert.deepEqual([failed.passed, failed.total, failed.status], [6, 9, 'failed'], JSON.stringify(failed));
      assert.deepEqual(failed.failing?.sort(), [
        'year_divisible_by_100_but_not_by_3_is_still_not_a_leap_year_9d70f938',
        'year_divisible_by_100_not_divisible_by_400_in_common_year_78a7848f',
        'year_divisible_by_200_not_divisible_by_400_in_common_year_c30331f6',
      ]);

      // Every build went to the one target folder beside the checkout, none into the checkout's own .tdd/.
      assert.ok((await readdir(`${checkoutDir}-cargo-target`)).includes('debug'));
      assert.ok(!existsSync(join(checkoutDir, '.tdd', 'cargo-target', 'debug')));
    } finally {
      await checkout.close();
    }
    assert.ok(!existsSync(`${checkoutDir}-cargo-target`), 'the target folder goes with the checkout');
  });
});
