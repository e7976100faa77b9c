import { execFileSync } from 'node:child_process';

/** cargo's version line (`cargo 1.95.0 (f2d3ce0bd 2026-03-21)`), or undefined when cargo is not on PATH. */
export function cargoVersion(): string | undefined {
  try {
    return execFileSync('cargo', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Skips the suite when cargo is not installed, saying so, except on CI (`CI` set), where it fails: CI has cargo
 * (`.ci/run` puts `~/.cargo/bin` on PATH, or installs Debian's cargo), so a skip there would hide the Rust tests.
 */
export function requireCargo(context: Mocha.Context): void {
  if (cargoVersion()) return;
  if (process.env.CI) throw new Error('The Rust tests need cargo (.ci/run installs it), and it is not on PATH.');
  process.stderr.write('  skipping the Rust tests: cargo is not installed (apt-get install cargo, or https://rustup.rs)\n');
  context.skip();
}
