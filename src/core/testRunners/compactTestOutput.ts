import { withoutPytestSourceEcho } from './pytestFailures';
import { withoutRuntimeFrames } from './runtimeFrames';

/** pytest's session header lines that describe the machine, not the tests (`collected N items` is kept). */
const PYTEST_HEADER =
  /^(platform |cachedir: |rootdir: |configfile: |testpaths: |plugins: |benchmark: |hypothesis profile |Using --randomly-seed)/;

/** node:test TAP lines that say nothing the summary does not: timings and zero counts. */
const TAP_NOISE = /^(\s*duration_ms: [\d.]+|# duration_ms [\d.]+|# (suites|cancelled|skipped|todo) 0)$/;

/**
 * A pytest line without what changes on every run and says nothing about the tests: the duration in the closing
 * summary (`== 1 failed, 2 passed in 1.94s ==`) and the memory address in an object's repr (`<Game object at 0x7f…>`).
 */
function withoutPytestNoise(line: string): string {
  return line
    .replace(/^(=+ .*\d+ \w+) in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))? (=+)$/, '$1 $2')
    .replace(/ object at 0x[0-9a-f]{4,16}>/g, ' object>');
}

/**
 * Test output as the model gets it (the run_tests result and the role context), with what names no test, no file
 * and no failure left out: stack frames inside the Node.js runtime (counted, see {@link withoutRuntimeFrames});
 * node:test's timings, zero counts, the empty YAML blocks of passing tests and the `# Subtest:` line repeating the
 * name of the result under it; pytest's header lines about the platform, plugins and configuration, its run
 * duration, the memory addresses in object reprs, and the function source its long tracebacks repeat above each
 * failing line ({@link withoutPytestSourceEcho}). Every failure, assertion, location and count stays as the runner
 * printed it; the full output is still kept in the run's record.
 */
export function compactTestOutput(text: string): string {
  const framed = withoutRuntimeFrames(text);
  const tap = framed.includes('TAP version');
  const pytest = framed.includes('test session starts');
  if (!tap && !pytest) return framed;
  const lines = framed.split('\n').filter((line) => !(tap && TAP_NOISE.test(line)) && !(pytest && PYTEST_HEADER.test(line)));
  if (!tap) return withoutPytestSourceEcho(lines).map(withoutPytestNoise).join('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A passing test's YAML block is empty once its timing is gone.
    if (/^\s*---$/.test(lines[i]!) && /^\s*\.\.\.$/.test(lines[i + 1] ?? '')) {
      i++;
      continue;
    }
    // `# Subtest: name` announces the `ok N - name` / `not ok N - name` line that follows it (a suite's has children).
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(lines[i]!);
    if (subtest && (lines[i + 1] ?? '').replace(/^(\s*)(not )?ok \d+ - /, '$1') === `${subtest[1]}${subtest[2]}`) continue;
    out.push(lines[i]!);
  }
  return out.join('\n');
}
