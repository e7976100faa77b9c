import { strict as assert } from 'node:assert';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileOnBranch, SessionHarness } from './sessionHarness';

const TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { fizzbuzz } from '../src/fizzbuzz.ts';\n\ntest('returns the number itself for 1', () => {\n  assert.equal(fizzbuzz(1), '1');\n});\n";
const IMPL = 'export function fizzbuzz(n: number): string {\n  return String(n);\n}\n';

// TypeScript runs through tsx, a devDependency: the session installs the scaffold's packages into its worktree
// (the one step outside the sandbox, with --ignore-scripts), then every test run is sandboxed as usual.
describe('TDD supervisor: a TypeScript kata installs its packages, then runs sandboxed', function () {
  this.timeout(300_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  it('npm install is approved with the writes, happens before the first turn, and the session goes green', async () => {
    const { summary, events } = await h.run(
      {
        cycles: [
          {
            tester: { writes: [{ path: 'test/fizzbuzz.test.ts', content: TEST }], report: 'returns the number itself' },
            implementer: { writes: [{ path: 'src/fizzbuzz.ts', content: IMPL }], report: 'String(n)' },
          },
        ],
      },
      { language: 'typescript' },
    );
    assert.equal(summary.status, 'completed', JSON.stringify(summary.error));
    assert.equal(summary.cycles[0]!.tests.passed, 1);
    const firstRun = events.find((e) => e.type === 'test_run_finished');
    assert.ok(
      firstRun && firstRun.type === 'test_run_finished' && firstRun.tests.status !== 'error',
      'tsx was there from the baseline run on',
    );
    assert.equal(
      await fileOnBranch(h.workspace, summary.branch, 'node_modules/tsx/package.json'),
      null,
      'node_modules is never committed',
    );
    await assert.rejects(access(join(h.workspace, 'node_modules')), 'nothing was installed in the person’s folder');
  });

  it('without an approval for it, the session stops with a clear CONFIG error before any turn', async () => {
    const { summary } = await h.run({ cycles: [] }, { language: 'typescript', approvalPolicy: {} });
    assert.equal(summary.status, 'failed');
    assert.equal(summary.error?.error_code, 'CONFIG');
    assert.match(summary.error!.message, /npm install --no-audit --no-fund --ignore-scripts.*not approved/);
    assert.equal(h.server.chatRequests().length, 0, 'no agent turn ran');
  });
});
