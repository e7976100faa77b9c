import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProcessSandbox } from '../../../src/core/osSandbox';
import { detectTestRunner } from '../../../src/core/testRunners/detectTestRunner';
import { requireMaven } from '../../support/javaToolchain';
import { createWorktree, requireBubblewrap } from '../osSandbox/fixture';

/** The project recorded in test/fixtures/surefire-output: passing, failing, erroring, disabled, parameterized, nested tests. */
const PROJECT = resolve('test/fixtures/surefire-output/project');

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('Maven in the sandbox, with the real toolchain', function () {
  this.timeout(300_000);

  before(async function () {
    requireMaven(this);
    await requireBubblewrap(this);
  });

  it('runs mvn offline in bubblewrap, judges each test by identity from Surefire’s reports, and target/ stays out of git', async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      assert.deepEqual([runner.kind, runner.command], ['maven', 'mvn -o -B test']);
      const result = await runner.run();
      assert.equal(result.status, 'failed', result.output);
      assert.equal(result.command, 'mvn -o -B test');
      assert.deepEqual([result.passed, result.failed, result.total], [4, 2, 7]);
      const file = 'src/test/java/kata/FizzBuzzTest.java';
      assert.deepEqual(result.tests?.map((t) => `${t.id} ${t.outcome}`).sort(), [
        `${file}::FizzBuzzTest > Large > hundred passed`,
        `${file}::FizzBuzzTest > fifteen skipped`,
        `${file}::FizzBuzzTest > five failed`,
        `${file}::FizzBuzzTest > fizz(int)[1] passed`,
        `${file}::FizzBuzzTest > fizz(int)[2] passed`,
        `${file}::FizzBuzzTest > one passed`,
        `${file}::FizzBuzzTest > thrown failed`,
      ]);
      const five = result.tests?.find((t) => t.name === 'FizzBuzzTest > five');
      assert.equal(five?.message?.split('\n')[0], 'org.opentest4j.AssertionFailedError: expected: <Buzz> but was: <5>');
      assert.equal(five?.line, 19);
      assert.match(result.output, /^\[ERROR\] Tests run: 7, Failures: 1, Errors: 1, Skipped: 1$/m);
      // Maven built in target/, which the session's `git add -A` must not take, though this project ignores nothing.
      assert.ok(existsSync(join(fixture.worktree, 'target/surefire-reports')));
      assert.equal(readFileSync(join(fixture.worktree, 'target/.gitignore'), 'utf8'), '*\n');
      const untracked = git(fixture.worktree, 'status', '--porcelain', '--untracked-files=all');
      assert.doesNotMatch(untracked, /target\//);
      assert.match(untracked, /src\/test\/java\/kata\/FizzBuzzTest\.java/);
    } finally {
      fixture.cleanup();
    }
  });

  it('a new test using a class that does not exist is a missing name; a test that does not parse is a syntax error; no stale report is read', async () => {
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      await runner.run(); // leaves reports in target/surefire-reports
      const leap = [
        'package kata;',
        '',
        'import static org.junit.jupiter.api.Assertions.assertTrue;',
        '',
        'import org.junit.jupiter.api.Test;',
        '',
        'class LeapTest {',
        '  @Test',
        '  void divisibleByFour() {',
        '    assertTrue(Leap.isLeap(1996));',
        '  }',
        '}',
        '',
      ].join('\n');
      writeFileSync(join(fixture.worktree, 'src/test/java/kata/LeapTest.java'), leap);
      const red = await runner.run();
      assert.deepEqual([red.status, red.errorKind, red.missingName], ['error', 'missing_export', 'Leap'], red.output);
      assert.equal(red.tests, undefined, 'the reports of the run before were removed, not read again');
      writeFileSync(join(fixture.worktree, 'src/test/java/kata/LeapTest.java'), leap.replace('(1996));', '(1996))'));
      const broken = await runner.run();
      assert.deepEqual([broken.status, broken.errorKind], ['error', 'syntax'], broken.output);
      assert.match(broken.reason ?? '', /src\/test\/java\/kata\/LeapTest\.java:10:\d+: ';' expected/);
    } finally {
      fixture.cleanup();
    }
  });

  it('reads ~/.m2/repository read-only and nothing else of HOME: settings.xml stays hidden', async function () {
    const repository = join(homedir(), '.m2', 'repository');
    if (!existsSync(repository)) this.skip();
    const fixture = createWorktree();
    try {
      cpSync(PROJECT, fixture.worktree, { recursive: true });
      const test = join(fixture.worktree, 'src/test/java/kata/FizzBuzzTest.java');
      writeFileSync(
        test,
        [
          'package kata;',
          '',
          'import static org.junit.jupiter.api.Assertions.assertFalse;',
          'import static org.junit.jupiter.api.Assertions.assertThrows;',
          'import static org.junit.jupiter.api.Assertions.assertTrue;',
          '',
          'import java.nio.file.Files;',
          'import java.nio.file.Path;',
          'import org.junit.jupiter.api.Test;',
          '',
          'class FizzBuzzTest {',
          `  private static final Path M2 = Path.of(${JSON.stringify(join(homedir(), '.m2'))});`,
          '',
          '  @Test',
          '  void repositoryIsSeen() {',
          '    assertTrue(Files.isDirectory(M2.resolve("repository/org/junit")));',
          '  }',
          '',
          '  @Test',
          '  void repositoryIsReadOnly() {',
          '    assertThrows(java.io.IOException.class, () -> Files.writeString(M2.resolve("repository/planted.txt"), "x"));',
          '  }',
          '',
          '  @Test',
          '  void settingsAreHidden() {',
          '    assertFalse(Files.exists(M2.resolve("settings.xml")));',
          '  }',
          '}',
          '',
        ].join('\n'),
      );
      mkdirSync(join(fixture.worktree, 'src/main/java/kata'), { recursive: true });
      const sandbox = await createProcessSandbox('auto', fixture.policy);
      const runner = await detectTestRunner(fixture.worktree, { sandbox });
      const result = await runner.run();
      assert.equal(result.status, 'passed', result.output);
      assert.deepEqual(result.tests?.map((t) => `${t.name} ${t.outcome}`).sort(), [
        'FizzBuzzTest > repositoryIsReadOnly passed',
        'FizzBuzzTest > repositoryIsSeen passed',
        'FizzBuzzTest > settingsAreHidden passed',
      ]);
      assert.ok(!existsSync(join(repository, 'planted.txt')));
    } finally {
      fixture.cleanup();
    }
  });
});
