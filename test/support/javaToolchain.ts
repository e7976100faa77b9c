import { execFileSync } from 'node:child_process';

/** Maven's version line (`Apache Maven 3.8.7`), or undefined when mvn (or the JDK it needs) is not there. */
export function mavenVersion(): string | undefined {
  try {
    return execFileSync('mvn', ['-v', '-B'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')[0]!
      .trim();
  } catch {
    return undefined;
  }
}

/**
 * Skips the suite when Maven is not installed, saying so, except on CI (`CI` set), where it fails: CI installs the JDK,
 * Maven and the plugins a build needs offline (`.ci/run`), so a skip there would hide the Java tests.
 */
export function requireMaven(context: Mocha.Context): void {
  if (mavenVersion()) return;
  if (process.env.CI)
    throw new Error(
      'The Java tests need mvn (.ci/run installs default-jdk-headless, maven, junit5 and the surefire, compiler and resources plugins), and it is not on PATH.',
    );
  process.stderr.write('  skipping the Java tests: mvn is not installed (apt-get install default-jdk-headless maven)\n');
  context.skip();
}
