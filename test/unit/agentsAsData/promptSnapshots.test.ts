import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentFactory, type AgentFactoryOptions } from '../../../src/core/agentsAsData';
import { FIXTURES_ROOT } from './agentFixtures';

// Golden files of composed prompts: each message's content verbatim, then the response format as JSON, so a
// diff reads like the prompt itself. Any byte difference fails; after an intended change to a prompt,
// regenerate with `UPDATE_SNAPSHOTS=1 npx mocha test/unit/agentsAsData/promptSnapshots.test.ts` and review the diff.
const SNAPSHOTS = join(__dirname, '__snapshots__');

const CASES: Array<{ file: string; agent: string; payload: Record<string, unknown>; options?: AgentFactoryOptions }> = [
  {
    file: 'qa-v1.txt',
    agent: 'qa',
    payload: {
      question: 'What does `add` return when given "2" and 3?',
      context: 'export function add(a, b) {\n  return a + b; // no coercion\n}\n',
    },
  },
  {
    file: 'cot-v1.txt',
    agent: 'cot',
    payload: { problem: 'A test suite has 12 tests; 3 fail. After a fix, 2 of those pass. How many fail now?', context: '' },
  },
  {
    // A TDD role: the context (code and test output) reaches the model raw, exactly as in the files.
    file: 'tester-v1.txt',
    agent: 'tester',
    payload: {
      context: [
        '# Kata: Leap Year',
        '',
        'Write `isLeap(year)`.',
        '',
        '# File contents',
        '## test/leap.test.js',
        '```',
        "import { isLeap } from '../src/leap.js';",
        "test('2000 is a leap year', () => assert.equal(isLeap(2000), true));",
        '```',
        '',
        '# This turn',
        '- cycle: 2',
        '- attempt: 1',
      ].join('\n'),
    },
  },
  {
    file: 'triage-v1.txt',
    agent: 'triage',
    payload: { report: 'Crash on save', attempts: 2 },
    options: { configRoot: FIXTURES_ROOT },
  },
  {
    file: 'extract-v1.txt',
    agent: 'extract',
    payload: { flags: ['--amend'], count: 1, message: 'fix(parser): handle "\\t" tabs\n\nCloses ABC-12' },
    options: { configRoot: FIXTURES_ROOT },
  },
  {
    file: 'reporter-v1.txt',
    agent: 'reporter',
    payload: { task: 'Rename `foo` to `bar`.' },
    options: { configRoot: FIXTURES_ROOT },
  },
];

describe('composed prompt snapshots', () => {
  for (const { file, agent, payload, options } of CASES) {
    it(`${agent}/v1 composes exactly ${file}`, () => {
      const composed = AgentFactory.create(agent, 'v1', payload, options).compose();
      const sections = composed.messages.map((m) => `----- ${m.role} -----\n${String(m.content)}\n`);
      sections.push(`----- responseFormat -----\n${JSON.stringify(composed.responseFormat ?? null, null, 2)}\n`);
      const actual = sections.join('');
      const path = join(SNAPSHOTS, file);
      if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(path, actual);
      assert.ok(existsSync(path), `missing snapshot ${path}; create it with UPDATE_SNAPSHOTS=1`);
      const expected = readFileSync(path, 'utf8');
      assert.ok(actual === expected, `composed prompt differs from ${file}`);
      assert.equal(actual, expected);
    });
  }
});
