import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCliBundle } from '../../support/cliBundle';
import { CONTEXT_SHAPE_PLANS, CONTEXT_SHAPES_DIR, contextShapeRepository, type ContextShape } from '../../support/contextShapes';
import { startOpenAIServer, type RecordedRequest } from '../../support/openaiServer';
import { git } from '../../support/personRepo';
import { runTask } from '../../support/projectShapeSession';
import { pathPython } from '../../support/projectShapes';
import { readingPlayer } from '../../support/readingPlayer';
import { scriptedKataModel } from '../../support/scriptedKataModel';
import { toolEnv } from '../../support/toolEnv';
import { requireBubblewrap } from '../osSandbox/fixture';
import { turnOfRequest } from '../tdd/supervisor/sessionHarness';

const userMessage = (req: RecordedRequest): string =>
  String((req.body.messages as Array<{ role: string; content?: unknown }>).find((m) => m.role === 'user')?.content ?? '');

/**
 * Issue 35, item 5 ("the roles see what they change"): on real libraries the file the Implementer changes was not
 * whole in its first request — a 143-line `index.js` that the tests reach through `require('..')` (16 of 143 lines
 * shown), a 580-line module (18 of 580) — and a player that reads a file before editing it then needed 5–6 requests
 * per green cycle. Here both shapes (test/fixtures/context) get `tdd-agent task` from the built CLI, zero-config,
 * against the loopback server, with the real runner (node --test, pytest) in bubblewrap and a careful scripted player
 * (test/support/readingPlayer.ts) that reads any file it must edit that is not whole in its context. The file must be
 * whole, byte for byte, in the first request of each Implementer turn, and the player must never need to read.
 *
 * On main before this change (d80c2bc), the first Implementer request of the index.js shape lists `index.js` in the
 * repository map only (`require('..')` resolved to nothing) and the player reads it; in the Python shape the long
 * module is over the Implementer's 4,000-token budget and mapped, in both cycles, and the Tester reads its test file:
 *   AssertionError: the Implementer's first request of cycle 1 shows index.js whole
 */
describe('issue 35: the file the Implementer changes is whole in its first request (built CLI, real runners, a player that reads what it cannot see)', function () {
  this.timeout(300_000);
  before(async function () {
    await requireBubblewrap(this);
    await ensureCliBundle();
  });

  const cases: Array<{ shape: ContextShape; edited: string[]; why: string }> = [
    { shape: 'js-root-index', edited: ['index.js'], why: "a 143-line root index.js reached through require('..')" },
    {
      shape: 'py-long-module',
      edited: ['src/textkit/core.py', 'src/textkit/__init__.py'],
      why: 'a 582-line module the tests reach through the package’s __init__.py',
    },
  ];

  for (const { shape, edited, why } of cases) {
    it(`${why}: whole in every Implementer turn's first request; no read needed, two green commits`, async () => {
      const plan = CONTEXT_SHAPE_PLANS[shape];
      const temp = await mkdtemp(join(tmpdir(), `tdd-${shape}-`));
      const server = await startOpenAIServer();
      try {
        const person = await contextShapeRepository(shape, temp);
        const base = git(person, 'rev-parse', 'HEAD');
        const player = readingPlayer(scriptedKataModel({ cycles: plan.cycles }).reply);
        server.setFallback(player.reply);
        const python = shape === 'py-long-module' ? await pathPython() : undefined;
        const env = { ...toolEnv(), PATH: [python?.binDir, process.env.PATH].filter(Boolean).join(':') };

        const task = await runTask(
          person,
          [plan.task, '--base-url', server.baseURL, '--model', 'test-model', '--yes', '--json'],
          env,
        );
        assert.equal(task.code, 0, `tdd-agent task exited ${task.code}:\n${task.stderr.slice(-3000)}`);
        const summary = JSON.parse(task.stdout) as { status: string; branch: string; cycles: Array<{ outcome: string }> };
        assert.equal(summary.status, 'completed', task.stderr.slice(-3000));
        assert.deepEqual(
          summary.cycles.map((c) => c.outcome),
          ['green', 'green', 'kata_complete'],
        );

        // The first request of each Implementer turn shows each file it edits whole, as the cycle's Tester left it
        // (cycle 1: the person's file; cycle 2: as cycle 1's commit has it).
        const commits = git(person, 'rev-list', '--reverse', `${base}..${summary.branch}`).split('\n').filter(Boolean);
        assert.equal(commits.length, 2);
        const firsts = server.chatRequests().filter((r) => {
          const t = turnOfRequest(r);
          return t.role === 'implementer' && t.step === 0;
        });
        assert.deepEqual(
          firsts.map((r) => turnOfRequest(r).cycle),
          [1, 2],
          'one Implementer turn per cycle',
        );
        for (const [i, request] of firsts.entries()) {
          const user = userMessage(request);
          for (const path of edited) {
            const text =
              i === 0
                ? await readFile(join(CONTEXT_SHAPES_DIR, shape, path), 'utf8')
                : git(person, 'show', `${commits[0]}:${path}`) + '\n';
            assert.ok(
              user.includes(`## ${path}\n\`\`\`\n${text}\n\`\`\``),
              `the Implementer's first request of cycle ${i + 1} shows ${path} whole (${text.split('\n').length - 1} lines):\n${user.slice(0, 6000)}`,
            );
          }
        }
        assert.deepEqual(player.reads, [], 'the player never had to read a file it edits');
        assert.equal(server.chatRequests().length, 7, 'three one-request turns a cycle, and the closing KATA_COMPLETE');
      } finally {
        await server.close();
        await rm(temp, { recursive: true, force: true });
      }
    });
  }
});
