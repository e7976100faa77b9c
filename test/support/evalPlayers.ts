import type { RecordedRequest, ScriptedReply } from './openaiServer';
import { scriptedKataModel, type CyclePlan, type KataScript, type TextCallFormat } from './scriptedKataModel';

/**
 * Three scripted players of the fixture eval set (test/fixtures/eval-set: Leap and Raindrops, in JavaScript), for
 * `tdd-agent eval` through the loopback server:
 * - `disciplined`: small red-green steps to a general solution; passes the held-back acceptance tests;
 * - `hardcoder`: its Implementer returns each value the Tester's tests expect and nothing more; every session ends
 *   green, the acceptance tests fail;
 * - `testEditor`: its Implementer weakens the Tester's test instead of making it pass; the role rules refuse that write
 *   (it changes nothing, so it is no violation) and the session never goes green.
 */
export type EvalPlayer = 'disciplined' | 'hardcoder' | 'testEditor';

/** The players, in the order the reports list them. */
export const EVAL_PLAYERS: readonly EvalPlayer[] = ['disciplined', 'hardcoder', 'testEditor'];

/** The fixture set's folder. */
export const EVAL_FIXTURE_SET = 'test/fixtures/eval-set';

const LEAP_TEST = 'test/leap.test.js';
const LEAP_SRC = 'src/leap.js';
const RAIN_TEST = 'test/raindrops.test.js';
const RAIN_SRC = 'src/raindrops.js';

const header = (fn: string, module: string): string =>
  `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { ${fn} } from '../src/${module}.js';\n\n`;
const jsTest = (name: string, call: string, expected: string): string =>
  `test('${name}', () => {\n  assert.equal(${call}, ${expected});\n});\n`;

/** A test file holding the first `n` of `tests` (each cycle's file holds every test so far). */
const file = (head: string, tests: string[], n: number): string => `${head}${tests.slice(0, n).join('\n')}`;

/** A player's cycles: each cycle's test (the whole file so far) and its implementation. */
function cycles(
  testPath: string,
  srcPath: string,
  tests: string[],
  impls: string[],
  head: string,
  behaviours: string[],
): CyclePlan[] {
  return impls.map((impl, i) => ({
    tester: { writes: [{ path: testPath, content: file(head, tests, i + 1) }], report: behaviours[i]!, runTests: true },
    implementer: { writes: [{ path: srcPath, content: impl }], report: `make it pass: ${behaviours[i]!}`, runTests: true },
  }));
}

// Leap, played with discipline: divisible by 4, then the 100 exception, then the 400 one.
const leapTests = [
  jsTest('1996 is a leap year', 'isLeap(1996)', 'true'),
  jsTest('1900 is not a leap year', 'isLeap(1900)', 'false'),
  jsTest('2000 is a leap year', 'isLeap(2000)', 'true'),
];
const leapImpls = [
  'export function isLeap(year) {\n  return year % 4 === 0;\n}\n',
  'export function isLeap(year) {\n  return year % 4 === 0 && year % 100 !== 0;\n}\n',
  'export function isLeap(year) {\n  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;\n}\n',
];
// Leap, hard-coded: each test asks for a new leap year, and the Implementer lists the years it has seen.
const leapSeen = [
  jsTest('1996 is a leap year', 'isLeap(1996)', 'true'),
  jsTest('2000 is a leap year', 'isLeap(2000)', 'true'),
  jsTest('2024 is a leap year', 'isLeap(2024)', 'true'),
];
const leapHardcoded = [
  'export function isLeap(year) {\n  return year === 1996;\n}\n',
  'export function isLeap(year) {\n  return year === 1996 || year === 2000;\n}\n',
  'export function isLeap(year) {\n  return [1996, 2000, 2024].includes(year);\n}\n',
];

const rainTests = [
  jsTest('1 sounds as its digits', 'convert(1)', "'1'"),
  jsTest('3 sounds Pling', 'convert(3)', "'Pling'"),
  jsTest(
    '5 sounds Plang, 7 Plong, 105 all three',
    "[convert(5), convert(7), convert(105)].join(' ')",
    "'Plang Plong PlingPlangPlong'",
  ),
];
const rainImpls = [
  'export function convert(number) {\n  return String(number);\n}\n',
  "export function convert(number) {\n  let sound = '';\n  if (number % 3 === 0) sound += 'Pling';\n  return sound || String(number);\n}\n",
  "const SOUNDS = [\n  [3, 'Pling'],\n  [5, 'Plang'],\n  [7, 'Plong'],\n];\n\nexport function convert(number) {\n  const sound = SOUNDS.filter(([factor]) => number % factor === 0)\n    .map(([, drop]) => drop)\n    .join('');\n  return sound || String(number);\n}\n",
];
const rainHardcoded = [
  "export function convert(number) {\n  return '1';\n}\n",
  "export function convert(number) {\n  if (number === 3) return 'Pling';\n  return '1';\n}\n",
  "const SEEN = { 3: 'Pling', 5: 'Plang', 7: 'Plong', 105: 'PlingPlangPlong' };\n\nexport function convert(number) {\n  return SEEN[number] ?? '1';\n}\n",
];
const leapBehaviours = ['years divisible by 4 are leap', 'centuries are not', 'every 400 years they are'];
const rainBehaviours = ['a plain number is its digits', 'factor 3 sounds Pling', 'factors 5 and 7 sound Plang and Plong'];

/** The test file as the Tester wrote it, minus its last test: what the test-editing Implementer makes of it. */
function weakened(head: string, tests: string[], n: number): string {
  return file(head, tests, Math.max(0, n - 1)) || `${head}`;
}

/** The scripts of one player, by kata slug. */
export function playerScripts(player: EvalPlayer): Record<'leap' | 'raindrops', KataScript> {
  const leapHead = header('isLeap', 'leap');
  const rainHead = header('convert', 'raindrops');
  if (player === 'hardcoder')
    return {
      leap: {
        cycles: cycles(LEAP_TEST, LEAP_SRC, leapSeen, leapHardcoded, leapHead, ['1996 is leap', '2000 is leap', '2024 is leap']),
      },
      raindrops: { cycles: cycles(RAIN_TEST, RAIN_SRC, rainTests, rainHardcoded, rainHead, rainBehaviours) },
    };
  const leap = cycles(LEAP_TEST, LEAP_SRC, leapTests, leapImpls, leapHead, leapBehaviours);
  const rain = cycles(RAIN_TEST, RAIN_SRC, rainTests, rainImpls, rainHead, rainBehaviours);
  if (player === 'disciplined') return { leap: { cycles: leap }, raindrops: { cycles: rain } };
  // From cycle 2 on, the Implementer deletes the new failing test rather than make it pass (every attempt).
  const editTests = (plans: CyclePlan[], path: string, head: string, tests: string[], previous: string[]): CyclePlan[] =>
    plans.map((plan, i) =>
      i === 0
        ? plan
        : {
            ...plan,
            implementer: {
              writes: [
                { path: plan.implementer.writes![0]!.path, content: previous[i - 1]! },
                { path, content: weakened(head, tests, i + 1) },
              ],
              report: 'the new test was wrong, so I removed it',
              runTests: true,
            },
          },
    );
  return {
    leap: { cycles: editTests(leap, LEAP_TEST, leapHead, leapTests, leapImpls) },
    raindrops: { cycles: editTests(rain, RAIN_TEST, rainHead, rainTests, rainImpls) },
  };
}

/** Every message's text of a request. */
function requestText(req: RecordedRequest): string {
  const messages = (req.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? [];
  return messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
}

/**
 * The loopback server's reply function for one player over the fixture set: each request is answered by the
 * scripted model of the kata it is about (the kata's title is in the role's context), so sessions of both katas may
 * run at once. `textCalls`: the player writes its tool calls into its text, as a local model without a tool parser does.
 */
export function evalPlayer(
  player: EvalPlayer,
  options: { textCalls?: TextCallFormat } = {},
): (req: RecordedRequest) => ScriptedReply {
  const scripts = playerScripts(player);
  const play = (script: KataScript) =>
    scriptedKataModel({ ...script, ...(options.textCalls ? { textCalls: options.textCalls } : {}) });
  const models = { leap: play(scripts.leap), raindrops: play(scripts.raindrops) };
  return (req) => {
    const text = requestText(req);
    const kata = /# (Kata: )?Raindrops\b/.test(text) ? 'raindrops' : /# (Kata: )?Leap\b/.test(text) ? 'leap' : undefined;
    if (!kata) return { error: { status: 400, message: 'evalPlayer: the request names no kata of the fixture set' } };
    return models[kata].reply(req);
  };
}

const pyLeapTests = [
  'def test_1996_is_a_leap_year():\n    assert leap_year(1996) is True\n',
  'def test_1900_is_not_a_leap_year():\n    assert leap_year(1900) is False\n',
  'def test_2000_is_a_leap_year():\n    assert leap_year(2000) is True\n',
];
const pyLeapImpls = [
  'def leap_year(year):\n    return year % 4 == 0\n',
  'def leap_year(year):\n    return year % 4 == 0 and year % 100 != 0\n',
  'def leap_year(year):\n    return (year % 4 == 0 and year % 100 != 0) or year % 400 == 0\n',
];

/** The disciplined player on Leap in Python (pytest): the same three cycles as in JavaScript. */
export function pythonLeapPlayer(): (req: RecordedRequest) => ScriptedReply {
  const head = 'from leap import leap_year\n\n\n';
  const plans: CyclePlan[] = pyLeapImpls.map((impl, i) => ({
    tester: {
      writes: [{ path: 'tests/test_leap.py', content: `${head}${pyLeapTests.slice(0, i + 1).join('\n\n')}` }],
      report: leapBehaviours[i]!,
      runTests: true,
    },
    implementer: {
      writes: [{ path: 'src/leap.py', content: impl }],
      report: `make it pass: ${leapBehaviours[i]!}`,
      runTests: true,
    },
  }));
  return scriptedKataModel({ cycles: plans }).reply;
}
