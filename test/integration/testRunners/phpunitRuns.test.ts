import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { requirePhpunit } from '../../support/phpToolchain';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

/** The project recorded in test/fixtures/phpunit-output: a passing, a failing, a skipped test, a data provider. */
const PROJECT = resolve('test/fixtures/phpunit-output/project');

describe('phpunit in the sandbox, with the real toolchain', function () {
  this.timeout(120_000);

  before(async function () {
    requirePhpunit(this);
    await requireBubblewrap(this);
  });

  it('runs in the bubblewrap sandbox and judges each test by identity, leaving no result cache behind', async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      assert.deepEqual([runner.kind, runner.command], ['phpunit', 'phpunit']);
      const result = await runner.run();
      assert.equal(result.status, 'failed', result.output);
      assert.equal(result.command, 'phpunit');
      assert.deepEqual([result.passed, result.failed, result.total], [3, 1, 5]);
      assert.deepEqual(
        result.tests?.map((t) => `${t.id} ${t.outcome}`),
        [
          'tests/FizzBuzzTest.php::FizzBuzzTest > testOneIsOne passed',
          'tests/FizzBuzzTest.php::FizzBuzzTest > testFiveIsBuzz failed',
          'tests/FizzBuzzTest.php::FizzBuzzTest > testLater skipped',
          'tests/FizzBuzzTest.php::FizzBuzzTest > testMultiplesOfThreeAreFizz with data set "three" passed',
          'tests/FizzBuzzTest.php::FizzBuzzTest > testMultiplesOfThreeAreFizz with data set "six" passed',
        ],
      );
      assert.match(result.output, /^FAILURES!$/m);
      assert.doesNotMatch(result.output, /log-junit|\.tdd\/reports/);
      assert.ok(!existsSync(join(fixture.worktree, '.phpunit.result.cache')), 'no result cache for a commit to take');
    } finally {
      fixture.cleanup();
    }
  });

  it('a new test that calls a class that does not exist is a failing test; a test file that does not parse is a syntax error', async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      const leap = [
        '<?php',
        'namespace Kata\\Tests;',
        '',
        'use Kata\\Leap;',
        'use PHPUnit\\Framework\\TestCase;',
        '',
        'final class LeapTest extends TestCase',
        '{',
        '    public function testYearDivisibleByFourIsLeap(): void',
        '    {',
        '        $this->assertTrue(Leap::isLeap(1996));',
        '    }',
        '}',
        '',
      ].join('\n');
      writeFileSync(join(fixture.worktree, 'tests/LeapTest.php'), leap);
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      const red = await runner.run();
      assert.equal(red.status, 'failed', red.output);
      const failing = red.tests?.filter((t) => t.outcome === 'failed').map((t) => `${t.id}: ${t.message?.split('\n')[0]}`);
      assert.deepEqual(failing, [
        'tests/FizzBuzzTest.php::FizzBuzzTest > testFiveIsBuzz: Failed asserting that two strings are identical.',
        'tests/LeapTest.php::LeapTest > testYearDivisibleByFourIsLeap: Error: Class "Kata\\Leap" not found',
      ]);
      writeFileSync(join(fixture.worktree, 'tests/LeapTest.php'), leap.replace('isLeap(1996));', 'isLeap(1996);'));
      const broken = await runner.run();
      assert.deepEqual([broken.status, broken.errorKind], ['error', 'syntax'], broken.output);
      assert.match(broken.reason ?? '', /a file has a syntax error — ParseError: .* in \S+\/tests\/LeapTest\.php:11/);
    } finally {
      fixture.cleanup();
    }
  });

  it("uses the person's vendor/ as they have it: Composer's autoloader, read-only, and HOME stays hidden", async () => {
    const fixture = createWorktree();
    try {
      const ws = fixture.worktree;
      // A package whose phpunit.xml names no bootstrap: the classes come from vendor/autoload.php, as Composer made it.
      writeFileSync(
        join(ws, 'composer.json'),
        JSON.stringify({ name: 'acme/greet', autoload: { 'psr-4': { 'Acme\\': 'src/' } } }),
      );
      writeFileSync(
        join(ws, 'phpunit.xml'),
        '<phpunit><testsuites><testsuite name="a"><directory>tests</directory></testsuite></testsuites></phpunit>\n',
      );
      mkdirSync(join(ws, 'src'));
      mkdirSync(join(ws, 'tests'));
      mkdirSync(join(ws, 'vendor'));
      writeFileSync(
        join(ws, 'src/Greet.php'),
        '<?php\nnamespace Acme;\n\nfinal class Greet\n{\n    public static function hello(string $n): string { return "hello $n"; }\n}\n',
      );
      writeFileSync(
        join(ws, 'vendor/autoload.php'),
        "<?php\nspl_autoload_register(function ($c) { if (strncmp($c, 'Acme\\\\', 5) === 0) require __DIR__ . '/../src/' . substr($c, 5) . '.php'; });\n",
      );
      writeFileSync(
        join(ws, 'tests/GreetTest.php'),
        [
          '<?php',
          'use Acme\\Greet;',
          'use PHPUnit\\Framework\\TestCase;',
          '',
          'final class GreetTest extends TestCase',
          '{',
          '    public function testHello(): void',
          '    {',
          "        $this->assertSame('hello php', Greet::hello('php'));",
          '    }',
          '',
          '    public function testVendorIsReadOnly(): void',
          '    {',
          "        $this->assertFalse(@file_put_contents(__DIR__ . '/../vendor/planted.php', 'x'));",
          '    }',
          '',
          '    public function testHomeIsHidden(): void',
          '    {',
          "        $this->assertFalse(@file_get_contents(getenv('HOME') . '/.ssh/id_ed25519'));",
          '    }',
          '}',
          '',
        ].join('\n'),
      );
      // A session shows the person's git-ignored vendor/ through its project view, copy-on-write; here it is read-only.
      const policy = { ...fixture.policy, readOnlyPaths: [...(fixture.policy.readOnlyPaths ?? []), join(ws, 'vendor')] };
      const sandbox = await createProcessSandbox('auto', policy);
      const runner = await detectTestRunner(ws, { sandbox, env: { HOME: fixture.home } });
      assert.equal(runner.command, 'phpunit --bootstrap vendor/autoload.php');
      const result = await runner.run();
      assert.equal(result.status, 'passed', result.output);
      assert.deepEqual(
        result.tests?.map((t) => `${t.id} ${t.outcome}`),
        [
          'tests/GreetTest.php::GreetTest > testHello passed',
          'tests/GreetTest.php::GreetTest > testVendorIsReadOnly passed',
          'tests/GreetTest.php::GreetTest > testHomeIsHidden passed',
        ],
      );
      assert.ok(!existsSync(join(ws, 'vendor/planted.php')));
      assert.equal(readFileSync(join(ws, 'vendor/autoload.php'), 'utf8').includes('spl_autoload_register'), true);
    } finally {
      fixture.cleanup();
    }
  });

  it('hostile repository: a vendor/bin/phpunit the repository ships runs only in the sandbox, writing nowhere but the worktree', async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      // The repository's own "phpunit": it proves it ran (a file in the worktree), then tries the person's files.
      mkdirSync(join(fixture.worktree, 'vendor/bin'), { recursive: true });
      const outside = join(fixture.root, 'written-outside');
      const script = [
        '#!/bin/sh',
        'echo ran > "$PWD/ran-in-sandbox"',
        `echo pwned > ${JSON.stringify(outside)}`,
        `echo pwned >> ${JSON.stringify(join(fixture.home, '.ssh', 'id_ed25519'))}`,
        `echo pwned > ${JSON.stringify(join(fixture.repo, 'planted'))}`,
        'exit 0',
        '',
      ].join('\n');
      writeFileSync(join(fixture.worktree, 'vendor/bin/phpunit'), script, { mode: 0o755 });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      assert.equal(runner.command, 'vendor/bin/phpunit', "the project's own phpunit, as the person runs it");
      assert.ok(!existsSync(join(fixture.worktree, 'ran-in-sandbox')), 'detecting the runner runs nothing');
      await runner.run();
      assert.ok(existsSync(join(fixture.worktree, 'ran-in-sandbox')), 'the script ran (in the sandbox)');
      assert.ok(!existsSync(outside), 'nothing written beside the worktree');
      assert.equal(readFileSync(join(fixture.home, '.ssh', 'id_ed25519'), 'utf8'), 'PRIVATE KEY OF THE PERSON\n');
      assert.ok(!existsSync(join(fixture.repo, 'planted')), "nothing written in the person's checkout");
    } finally {
      fixture.cleanup();
    }
  });
});
