import { execFileSync } from 'node:child_process';

/** PHPUnit's version line (`PHPUnit 9.6.7 by Sebastian Bergmann and contributors.`), or undefined when phpunit is not on PATH. */
export function phpunitVersion(): string | undefined {
  try {
    return execFileSync('phpunit', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Skips the suite when phpunit is not installed, saying so, except on CI (`CI` set), where it fails: CI installs it
 * (`.ci/run`), so a skip there would hide the PHP tests.
 */
export function requirePhpunit(context: Mocha.Context): void {
  if (phpunitVersion()) return;
  if (process.env.CI)
    throw new Error('The PHP tests need phpunit (.ci/run installs php-cli and phpunit), and it is not on PATH.');
  process.stderr.write('  skipping the PHP tests: phpunit is not installed (apt-get install php-cli phpunit)\n');
  context.skip();
}
