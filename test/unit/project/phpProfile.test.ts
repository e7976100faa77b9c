import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeProjectProfile } from '../../../src/core/project/describeProfile';
import { detectProjectProfile, resolveProjectProfile } from '../../../src/core/project/detectProjectProfile';
import { isTestFile } from '../../../src/core/tdd/boundaries/isTestFile';
import { parseKata } from '../../../src/core/tdd/kata/parseKata';
import { scaffoldPlan } from '../../../src/core/tdd/scaffold/scaffoldFiles';
import { checkTestRunner } from '../../../src/core/tdd/supervisor/preflight';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';

const COMPOSER = JSON.stringify({
  name: 'acme/sizes',
  autoload: { 'psr-4': { 'Acme\\Sizes\\': 'src/' } },
  'autoload-dev': { 'psr-4': { 'Acme\\Sizes\\Tests\\': 'tests/' } },
});
const PHPUNIT_XML =
  '<?xml version="1.0"?>\n<phpunit bootstrap="tests/bootstrap.php">\n  <testsuites>\n    <testsuite name="unit">\n      <directory suffix="Test.php">./tests/Unit</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n';

describe('a PHP project: its profile, its scaffold, its test command', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'php-profile-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads composer.json and phpunit.xml.dist: language php, the system phpunit, *Test.php in the suite folder, the autoload folder as source', async () => {
    await writeFile(join(dir, 'composer.json'), COMPOSER);
    await writeFile(join(dir, 'phpunit.xml.dist'), PHPUNIT_XML);
    await mkdir(join(dir, 'src'));
    await mkdir(join(dir, 'tests/Unit'), { recursive: true });
    const profile = await detectProjectProfile(dir);
    assert.equal(profile.language, 'php');
    assert.deepEqual(profile.languages, ['php']);
    assert.equal(profile.testRunner, 'phpunit');
    assert.equal(profile.testCommand, 'phpunit');
    assert.deepEqual(profile.sourceRoots, ['src']);
    assert.equal(profile.testDir, 'tests/Unit');
    assert.deepEqual(profile.testFilePatterns, ['**/*Test.php', 'tests/Unit/**']);
    assert.deepEqual(profile.manifests, ['composer.json', 'phpunit.xml.dist']);
    assert.deepEqual(profile.notes, []);
    assert.match(describeProjectProfile(profile).summary, /^PHP, PHPUnit \(`phpunit`\)/);
    const rules = { testDir: profile.testDir, sourceDir: profile.sourceRoots[0], testFilePatterns: profile.testFilePatterns };
    assert.ok(isTestFile('tests/Unit/ParseTest.php', rules));
    assert.ok(isTestFile('tests/Unit/Fixtures/sizes.php', rules));
    assert.ok(!isTestFile('src/Parse.php', rules));
  });

  it("runs the project's own vendor/bin/phpunit when Composer installed it, and Composer's autoloader when the configuration names none", async () => {
    await writeFile(join(dir, 'composer.json'), COMPOSER);
    await writeFile(
      join(dir, 'phpunit.xml'),
      '<phpunit><testsuites><testsuite name="a"><directory>tests</directory></testsuite></testsuites></phpunit>',
    );
    await mkdir(join(dir, 'vendor/bin'), { recursive: true });
    await writeFile(join(dir, 'vendor/autoload.php'), '<?php\n');
    assert.equal((await detectProjectProfile(dir)).testCommand, 'phpunit --bootstrap vendor/autoload.php');
    await writeFile(join(dir, 'vendor/bin/phpunit'), '#!/usr/bin/env php\n<?php\n');
    await chmod(join(dir, 'vendor/bin/phpunit'), 0o755);
    assert.equal((await detectProjectProfile(dir)).testCommand, 'vendor/bin/phpunit');
    const runner = await detectTestRunner(dir);
    assert.deepEqual([runner.kind, runner.command], ['phpunit', 'vendor/bin/phpunit']);
  });

  it('says what it cannot load: no bootstrap, no vendor/ — and a package without phpunit.xml runs its test folder', async () => {
    await writeFile(join(dir, 'composer.json'), COMPOSER);
    await mkdir(join(dir, 'tests'));
    const profile = await detectProjectProfile(dir);
    assert.equal(profile.testCommand, 'phpunit tests');
    assert.equal(profile.testDir, 'tests');
    assert.deepEqual(profile.notes, [
      'There is no phpunit.xml, which names no bootstrap and there is no vendor/autoload.php: the tests load only the classes they require themselves. Run composer install, or name a bootstrap in phpunit.xml.',
    ]);
  });

  it('is overridable as any profile: a flag names another command', async () => {
    await writeFile(join(dir, 'composer.json'), COMPOSER);
    const profile = await resolveProjectProfile(dir, {
      overrides: { testCommand: 'phpunit --testsuite unit' },
      readConfigFile: false,
    });
    assert.equal(profile.testCommand, 'phpunit --testsuite unit');
    assert.equal(profile.fields.testCommand, 'flag');
    assert.equal(profile.testRunner, 'phpunit');
  });

  it('a machine without phpunit says so in one line, and what to install', async () => {
    const kata = parseKata(readFileSync('katas/fizzbuzz.md', 'utf8'), { fileName: 'fizzbuzz.md', language: 'php' });
    assert.deepEqual([kata.language, kata.sourceDir, kata.testDir], ['php', 'src', 'tests']);
    await assert.rejects(checkTestRunner(kata, { env: { PATH: dir } }), (e: Error) => {
      assert.equal(
        e.message,
        "The tests run with 'phpunit', but 'phpunit' is not installed or not on PATH. Install PHPUnit (Debian and Ubuntu: apt-get install php-cli phpunit; macOS: brew install php phpunit; or composer require --dev phpunit/phpunit), or name another test command (testCommand in tdd-agent.json), then start again.",
      );
      return true;
    });
  });

  it('a kata in PHP gets composer.json (PSR-4, global namespace), phpunit.xml and a bootstrap that autoloads without vendor/', async function () {
    const plan = scaffoldPlan('php', { slug: 'leap-year', title: 'Leap Year', sourceDir: 'src', testDir: 'tests' });
    assert.deepEqual(Object.keys(plan.files).sort(), [
      '.gitignore',
      'composer.json',
      'phpunit.xml',
      'src/.gitkeep',
      'tests/bootstrap.php',
    ]);
    assert.deepEqual(JSON.parse(plan.files['composer.json']!).autoload, { 'psr-4': { '': 'src/' } });
    assert.match(plan.files['phpunit.xml']!, /bootstrap="tests\/bootstrap\.php"/);
    assert.equal(plan.testCommand, 'phpunit');
    // The bootstrap, run by the real php: a class under src/ loads by its name.
    try {
      execFileSync('php', ['--version']);
    } catch {
      this.skip();
    }
    for (const [path, text] of Object.entries(plan.files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    await writeFile(
      join(dir, 'src/LeapYear.php'),
      '<?php\nfinal class LeapYear { public static function isLeap(int $y): bool { return $y % 4 === 0; } }\n',
    );
    const out = execFileSync('php', ['-r', 'require "tests/bootstrap.php"; var_export(LeapYear::isLeap(1996));'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(out, 'true');
  });
});
