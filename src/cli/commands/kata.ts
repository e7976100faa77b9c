import { resolve } from 'node:path';
import { ControlProtocol, TerminalTransport } from '../../core/control';
import { isKataLanguage, type KataLanguage } from '../../core/tdd/kata';
import { runKataSession } from '../../core/tdd/supervisor/kataSession';
import type { SessionSummary } from '../../core/tdd/supervisor/sessionSummary';
import type { McpServerStatus } from '../../core/mcp/mcpHub';
import { approveUpTo, extractYes, intFlag, parseCommandArgs, PROVIDER_OPTIONS } from '../args';
import { EXIT, UsageError, type CliIo } from '../cliIo';
import { readMcpConfigFile } from '../mcpConfigFile';
import { progressPrinter } from '../progressPrinter';
import { modelFromFlags } from '../providerFromFlags';

/** `tdd-agent kata --help`. */
export const KATA_USAGE = `Usage: tdd-agent kata <kata.md | bundled-kata> [options]

Runs red-green-refactor cycles on a kata in its own git worktree, on a new branch tdd/<kata>-<time>.
Your checkout (files, index, branch, stash, ignored files) is never changed; you review and merge the branch.
Every test run and command runs in an OS sandbox (bubblewrap on Linux, sandbox-exec on macOS).

Options:
  --workspace DIR        workspace folder (default: the current folder)
  --language LANG        javascript | typescript | python (default: the kata's, else javascript)
  --max-cycles N         stop after N cycles (default: the kata's max_cycles, else 10)
  --yes[=LEVEL]          approve tool calls up to LEVEL without asking (default MEDIUM; at most HIGH)
  --from-working-tree    start from your uncommitted files too (copied into the session's first commit)
  --resume               continue the newest interrupted session of this kata (see tdd-agent sessions)
  --session ID           with --resume: continue this session
  --sandbox MODE         auto (default: refuse to run without an OS sandbox) | off (run generated code
                         unconfined on this machine: only if you accept that)
  --quality-gate CMD     a command that must pass after every green state (repeatable)
  --test-timeout MS      per test run (default 60000)
  --timeout MS           limit of one model call (default 120000)
  --mcp-config FILE      a JSON array of MCP servers whose tools join the session (see docs/configuration.md);
                         a role sees them only if its config lists them, e.g. "docs__*" (see --agents-dir)
  --agents-dir DIR       role configs to use instead of the bundled ones (DIR/tester/v1.json, ...)
  --provider P           auto | openai | ollama | replay (default auto)
  --base-url URL         any OpenAI-compatible server (default: OPENAI_BASE_URL, or detection)
  --model NAME           model id (default: the provider's)
  --cassette FILE        with --provider replay: the recorded session to play
  --record FILE          record every model exchange to FILE
  --json                 print one JSON summary on stdout at the end
  -v, --verbose          print every tool call and model call

Exit codes: 0 all tests green at the end, 1 the session failed or was cancelled, 2 usage or configuration error.`;

const KATA_OPTIONS = {
  ...PROVIDER_OPTIONS,
  workspace: { type: 'string' },
  language: { type: 'string' },
  'max-cycles': { type: 'string' },
  'from-working-tree': { type: 'boolean', default: false },
  resume: { type: 'boolean', default: false },
  session: { type: 'string' },
  sandbox: { type: 'string' },
  'quality-gate': { type: 'string', multiple: true },
  'test-timeout': { type: 'string' },
  'mcp-config': { type: 'string' },
  'agents-dir': { type: 'string' },
} as const;

/** One stderr line per connected MCP server (failures are logged as warnings by the session). */
function mcpLines(statuses: McpServerStatus[]): string {
  return statuses
    .filter((s) => s.state === 'connected')
    .map((s) => `MCP server ${s.name}: ${s.tools.length} tool(s) (${s.name}__*)\n`)
    .join('');
}

/** How to look at and take the session's result, printed after the summary. */
export function reviewHint(summary: SessionSummary): string {
  const s = summary.session;
  if (!s || !summary.branch) return '';
  const base = s.base_branch ?? s.base_commit.slice(0, 12);
  const git = (args: string): string => `git -C ${JSON.stringify(s.repository)} ${args}`;
  const lines = [
    `\nThe result is on branch ${summary.branch}; your checkout was not changed.`,
    `  review:  ${git(`log --stat ${base}..${summary.branch}`)}`,
    `           ${git(`diff ${base}...${summary.branch}`)}`,
    `  take it: ${git(`merge ${summary.branch}`)}`,
  ];
  if (s.worktree)
    lines.push(`  resume:  the same command with --resume --session ${s.id}  (its worktree is kept at ${s.worktree})`);
  return `${lines.join('\n')}\n`;
}

/** Exit code for a finished session: 0 only when it ended with every test green. */
export function exitCodeFor(summary: SessionSummary): number {
  return summary.status === 'completed' || summary.status === 'max_cycles' ? EXIT.ok : EXIT.failed;
}

/** `tdd-agent kata`: one session, progress on stderr, the summary on stdout with --json. */
export async function kataCommand(
  argv: string[],
  io: CliIo,
  defaults: { cassette?: string; workspace?: string; yes?: string } = {},
): Promise<number> {
  const pulled = extractYes(argv);
  const { values, positionals } = parseCommandArgs(pulled.argv, KATA_OPTIONS);
  if (values.help) {
    io.stdout.write(`${KATA_USAGE}\n`);
    return EXIT.ok;
  }
  const kataPath = positionals[0];
  if (!kataPath || positionals.length > 1)
    throw new UsageError('Give exactly one kata: a markdown file or the name of a bundled kata (tdd-agent katas lists them).');
  const language = values.language;
  if (language !== undefined && !isKataLanguage(language))
    throw new UsageError(`--language must be javascript, typescript or python, got '${language}'.`);
  const autoApprove = approveUpTo(pulled.yes ?? defaults.yes);
  const sandbox = values.sandbox ?? 'auto';
  if (sandbox !== 'auto' && sandbox !== 'off') throw new UsageError(`--sandbox takes auto or off, got '${sandbox}'.`);
  if (values.session !== undefined && !values.resume) throw new UsageError('--session goes with --resume.');
  const mcpServers = values['mcp-config'] !== undefined ? await readMcpConfigFile(resolve(values['mcp-config'])) : undefined;

  const model = await modelFromFlags(
    {
      ...values,
      cassette: values.cassette ?? defaults.cassette,
      provider: values.provider ?? (defaults.cassette ? 'replay' : undefined),
    },
    io.env,
    io.signal,
  );
  const transport = new TerminalTransport({ input: io.stdin, output: io.stderr, autoApproveUpTo: autoApprove });
  const control = new ControlProtocol(transport);
  const print = progressPrinter(io.stderr, values.verbose);
  try {
    const summary = await runKataSession({
      workspace: resolve(values.workspace ?? defaults.workspace ?? process.cwd()),
      kataPath, // a file path is resolved against the current folder, like --workspace
      language: language as KataLanguage | undefined,
      llm: model.llm,
      model: model.model,
      provider: model.provider,
      maxCycles: intFlag(values['max-cycles'], 'max-cycles'),
      control,
      approvalPolicy: autoApprove ? { autoApproveUpTo: autoApprove } : {},
      qualityGates: values['quality-gate'],
      testTimeoutMs: intFlag(values['test-timeout'], 'test-timeout'),
      modelTimeoutMs: model.timeoutMs,
      mcpServers,
      onMcpServers: (statuses) => io.stderr.write(mcpLines(statuses)),
      agentsDir: values['agents-dir'] !== undefined ? resolve(values['agents-dir']) : undefined,
      fromWorkingTree: values['from-working-tree'],
      resume: values.resume ? (values.session ?? true) : false,
      sandbox,
      signal: io.signal,
      onEvent: print,
    });
    if (values.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else io.stderr.write(reviewHint(summary));
    return exitCodeFor(summary);
  } finally {
    control.close();
    transport.close();
  }
}
