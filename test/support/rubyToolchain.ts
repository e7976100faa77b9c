import { execFileSync } from 'node:child_process';

/** RSpec's version (`3.12`), or undefined when ruby or rspec is not on PATH. */
export function rspecVersion(): string | undefined {
  try {
    return /RSpec (\S+)/.exec(execFileSync('rspec', ['--version'], { encoding: 'utf8' }))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Skips the suite when ruby and rspec are not installed, saying so, except on CI (`CI` set), where it fails: CI
 * installs them (`.ci/run`), so a skip there would hide the Ruby tests.
 */
export function requireRspec(context: Mocha.Context): void {
  if (rspecVersion()) return;
  if (process.env.CI)
    throw new Error('The Ruby tests need ruby and rspec (.ci/run installs ruby and ruby-rspec), and rspec is not on PATH.');
  process.stderr.write('  skipping the Ruby tests: rspec is not installed (apt-get install ruby ruby-rspec)\n');
  context.skip();
}
