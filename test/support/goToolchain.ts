import { execFileSync } from 'node:child_process';

/** The go command's version line (`go version go1.19.8 linux/amd64`), or undefined when go is not on PATH. */
export function goVersion(): string | undefined {
  try {
    return execFileSync('go', ['version'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Skips the suite when the go command is not installed, saying so, except on CI (`CI` set), where it fails: CI
 * installs Go (`.ci/run`), so a skip there would hide the Go tests.
 */
export function requireGo(context: Mocha.Context): void {
  if (goVersion()) return;
  if (process.env.CI) throw new Error('The Go tests need the go command (.ci/run installs golang-go), and it is not on PATH.');
  process.stderr.write('  skipping the Go tests: go is not installed (apt-get install golang-go)\n');
  context.skip();
}
