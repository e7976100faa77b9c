/**
 * What a session on a real project costs in prompt tokens and model requests (`npm run bench`, called from
 * bench/run.ts; or alone with `tsx bench/projectPrompts.ts`): each project of test/fixtures/projects (pnpm + vitest
 * with tests beside the code, npm + jest, pip + pytest with a src layout), installed once as its README says, gets a
 * two-cycle session started from its task sentence alone, the roles played by the scripted kata model
 * (test/support/fixturePlans.ts: the Tester adds a test to an existing test file with edit_file, the Implementer adds a
 * function to the module that test imports), with real git, real test runs in bubblewrap and real commits. Every chat
 * request is counted with gpt-tokenizer (o200k_base), as bench/promptTokens.ts counts the katas.
 *
 * Also: what an edit to a 4,000-token file costs the model in output, with edit_file and with write_file, the edit
 * applied by the real tool. Rewrites the part of docs/benchmarks.md between `<!-- bench:project-prompts:start -->`
 * and `<!-- bench:project-prompts:end -->`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { setLogLevel } from '../src/core/logging/logger';
import { runKataSession } from '../src/core/tdd/supervisor/kataSession';
import { editFileTool } from '../src/core/tools/builtin';
import { ApprovalPolicy } from '../src/core/tools/approvalPolicy';
import { ToolExecutor } from '../src/core/tools/executor';
import { ToolRegistry } from '../src/core/tools/registry';
import { FIXTURE_PLANS } from '../test/support/fixturePlans';
import { fixtureRepository, installFixture, PROJECT_FIXTURES_DIR, type ProjectFixture } from '../test/support/projectFixtures';
import { scriptedKataModel } from '../test/support/scriptedKataModel';
import { createScriptedLlmClient } from '../test/support/scriptedLlmClient';
import { machineLines, publishSection, withBenchCache } from './benchDoc';
import { requestText } from './promptTokens';

/** The targets and what it measured before (real libraries, whole-file writes, context in path order). */
const TARGET_TOKENS_PER_COMMIT = 20_000;
const TARGET_REQUESTS_PER_CYCLE = 3.5;
const BEFORE = 'about 65 000 tokens';

interface Figures {
  fixture: ProjectFixture;
  requests: number;
  greenCycles: number;
  tokens: number;
  perCommit: number;
  perCycle: number;
  /** The largest single request, in tokens. */
  largest: number;
}

async function measure(fixture: ProjectFixture, temp: string): Promise<Figures> {
  const plan = FIXTURE_PLANS[fixture];
  const person = await fixtureRepository(fixture, await mkdtemp(join(temp, `${fixture}-`)));
  await installFixture(person, fixture);
  const llm = createScriptedLlmClient();
  llm.setFallback(scriptedKataModel({ cycles: plan.cycles }).reply);
  const summary = await runKataSession({
    workspace: person,
    task: plan.task,
    llm,
    model: 'test-model',
    provider: 'openai',
    maxCycles: 4,
    approvalPolicy: { autoApproveUpTo: 'MEDIUM' },
    testTimeoutMs: 120_000,
  });
  if (summary.status !== 'completed')
    throw new Error(`${fixture}: the session did not complete: ${JSON.stringify(summary.error)}`);
  const greenCycles = summary.cycles.filter((c) => c.outcome === 'green').length;
  const sizes = llm.chatRequests().map((r) => encode(requestText(r.body)).length);
  const tokens = sizes.reduce((a, b) => a + b, 0);
  return {
    fixture,
    requests: sizes.length,
    greenCycles,
    tokens,
    perCommit: Math.round(tokens / greenCycles),
    perCycle: sizes.length / greenCycles,
    largest: Math.max(...sizes),
  };
}

/**
 * One test added to a 4,000-token test file: the output a model writes for it with edit_file (the anchor and the
 * new test) against write_file (the whole file again), the edit applied by the real edit_file tool.
 */
async function editCost(temp: string): Promise<{ fileTokens: number; editTokens: number; writeTokens: number }> {
  const unit = await readFile(join(PROJECT_FIXTURES_DIR, 'ts-vitest-pnpm', 'src', 'parse.test.ts'), 'utf8');
  const copies: string[] = [];
  for (let i = 1; encode(copies.join('\n')).length < 4_000; i++) copies.push(unit.replace(/describe\('/g, `describe('${i}: `));
  const file = copies.join('\n');
  // The new test goes first in the last describe block: its opening line (numbered, so unique) is the anchor.
  const start = file.lastIndexOf("describe('");
  const anchor = file.slice(start, file.indexOf('\n', start) + 1);
  const addition = `  it('reads 1.5 kB as 1500 bytes', () => {\n    expect(parseBytes('1.5 kB')).toBe(1500);\n  });\n\n`;
  const dir = await mkdtemp(join(temp, 'edit-'));
  await writeFile(join(dir, 'big.test.ts'), file);
  const executor = new ToolExecutor({
    registry: new ToolRegistry().register(editFileTool),
    workspaceRoot: dir,
    policy: new ApprovalPolicy({ autoApproveUpTo: 'MEDIUM' }),
  });
  const editArgs = JSON.stringify({ path: 'big.test.ts', search: anchor, replace: `${anchor}${addition}` });
  const result = await executor.executeCall({ id: 'edit', name: 'edit_file', arguments: editArgs });
  const after = await readFile(join(dir, 'big.test.ts'), 'utf8');
  if (!result.ok || !after.includes('reads 1.5 kB as 1500 bytes')) throw new Error(`the edit did not apply: ${result.content}`);
  return {
    fileTokens: encode(file).length,
    editTokens: encode(`edit_file ${editArgs}`).length,
    writeTokens: encode(`write_file ${JSON.stringify({ path: 'big.test.ts', content: after })}`).length,
  };
}

function render(rows: Figures[], edit: Awaited<ReturnType<typeof editCost>>): string {
  const lines = [
    '## Sessions on real projects: prompt tokens and requests',
    '',
    'Reproduce: `npm run bench` (or `tsx bench/projectPrompts.ts` for this section alone): each project of',
    '`test/fixtures/projects`, installed as its README says, gets a session started from its task sentence alone (`tdd-agent',
    'task`), two cycles played by the scripted kata model (`test/support/fixturePlans.ts`: the Tester adds one test to an',
    'existing test file with edit_file, the Implementer adds a function to the module that test imports), with real git, the',
    "project's real runner in bubblewrap and real commits; every chat request counted with `gpt-tokenizer` (o200k_base).",
    '',
    ...machineLines(),
    '',
    '| Figure | Before | Measured | Target | Met | How |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| Prompt tokens per green commit, ${r.fixture} | ${BEFORE} | ${r.perCommit} | ≤ ${TARGET_TOKENS_PER_COMMIT} | ${r.perCommit <= TARGET_TOKENS_PER_COMMIT ? 'yes' : 'no'} | ${r.tokens} tokens in ${r.requests} requests / ${r.greenCycles} green commits; largest request ${r.largest} |`,
    );
  }
  for (const r of rows) {
    lines.push(
      `| Model requests per green cycle, ${r.fixture} | 6–8 | ${r.perCycle.toFixed(2)} | ≤ ${TARGET_REQUESTS_PER_CYCLE} | ${r.perCycle <= TARGET_REQUESTS_PER_CYCLE ? 'yes' : 'no'} | ${r.requests} requests / ${r.greenCycles} green cycles, the Tester's closing KATA_COMPLETE turn included |`,
    );
  }
  lines.push(
    `| Output of one test added to a ${edit.fileTokens}-token file | write_file: ${edit.writeTokens} | edit_file: ${edit.editTokens} | the size of the edit | ${edit.editTokens < edit.fileTokens / 10 ? 'yes' : 'no'} | the call's name and arguments as the model writes them; the edit applied by the real edit_file tool |`,
    '',
    `Notes: "Before" is what issue 24 measured on three real libraries (${BEFORE} per green commit in 12–16 requests for`,
    'two cycles), with whole-file writes and the context in path order. 3.5 requests per green cycle is three turns of one',
    'request each plus the Tester’s closing KATA_COMPLETE turn shared by the two cycles. Each turn now ends when the supervisor’s own test run shows its goal reached',
    '(the Tester’s new test fails as required, the Implementer’s tests pass), so a turn that writes in one message is one',
    'request; the Refactorer answers NO_REFACTOR in one. A role sees the test being written, the module it imports and the',
    'session’s files in full (a token budget per role in its config, `context_tokens`), the rest of the repository as a',
    'map with exported symbols; docs, CI, manifests and lockfiles are listed by path after the code. The fixtures are small',
    '(about 15–40 KB of code each), so these figures say what a cycle costs, not how the budget holds on a large repository:',
    'there the budget caps each request at `context_tokens` plus the prompt, tools and test output.',
  );
  return lines.join('\n');
}

/** Measures every fixture and the edit cost, prints the section and writes it to docs/benchmarks.md. */
export async function projectPromptsBench(): Promise<void> {
  setLogLevel('error');
  const temp = await mkdtemp(join(tmpdir(), 'bench-project-prompts-'));
  try {
    await withBenchCache(async () => {
      const rows: Figures[] = [];
      for (const fixture of Object.keys(FIXTURE_PLANS) as ProjectFixture[]) rows.push(await measure(fixture, temp));
      await publishSection('project-prompts', render(rows, await editCost(temp)));
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  projectPromptsBench().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
