import { resolve } from 'node:path';
import { ControlProtocol, type McpServerStatus, TerminalTransport } from '../../core';
import {
  isLanguage,
  KataError,
  type Language,
  LANGUAGES,
  languagesInWords,
  type ProjectOverrides,
  type ProjectProfile,
  relativePathProblem,
  runKataSession,
  type SessionSummary,
  type TaskSpec,
} from '../../core/tddApi';
import { approveUpTo, extractYes, intFlag, parseCommandArgs, PROVIDER_OPTIONS } from '../args';
import { EXIT, UsageError, type CliIo } from '../cliIo';
import { readMcpConfigFile } from '../mcpConfigFile';
import { progressPrinter } from '../progressPrinter';
import { SANDBOX_USAGE, sandboxFlag } from '../sandboxFlag';
import { modelFromFlags } from '../providerFromFlags';

/** The options `kata` and `task` share, as `--help` lists them. */
export const SESSION_OPTIONS_USAGE = `  --workspace DIR        workspace folder (default: the current folder)
  --language LANG        ${LANGUAGES.join(' | ')} (default: the kata's, else the project's, else javascript)
  --test-command CMD     the command that runs the tests (default: tdd-agent.json's, the kata's, else detected)
  --test-pattern GLOB    which files are tests, e.g. 'src/**/*.test.ts' (repeatable; default: detected)
  --source-dir DIR       where the code goes (default: tdd-agent.json's, the kata's, else detected: src/, lib/, the root)
  --max-cycles N         stop after N cycles (default: the kata's max_cycles, else 10)
  --yes[=LEVEL]          approve tool calls up to LEVEL without asking (default MEDIUM; at most HIGH)
  --from-working-tree    start from your uncommitted files too (copied into the session's first commit)
  --resume               continue the newest interrupted session of this kata or task (see tdd-agent sessions)
  --session ID           with --resume: continue this session
${SANDBOX_USAGE}
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
  --json                 print one JSON summary on stdout at the end (with the project profile)
  -v, --verbose          print every tool call and model call

The project (language, test command, test files, source folder) is read from your repository: package.json, its
lockfile and the runners' configs (vitest, jest, mocha), pyproject.toml / setup.cfg / pytest.ini / tox.ini and
requirements*.txt. A tdd-agent.json at the repository's root overrides it ({ "language", "testCommand",
"testPatterns": [...], "sourceDir", "testDir" }), the kata's front matter sits between the two, and the flags above
win over all. A folder without any manifest gets a minimal project for the language.

Exit codes: 0 all tests green at the end, 1 the session failed, was cancelled or ended incomplete (the Tester
stopped with a stated example untested, or a test that was red is gone), 2 usage or configuration error.`;

/** `tdd-agent kata --help`. */
export const KATA_USAGE = `Usage: tdd-agent kata <kata.md | bundled-kata> [options]

Runs red-green-refactor cycles on a kata in its own git worktree, on a new branch tdd/<kata>-<time>.
Your checkout (files, index, branch, stash, ignored files) is never changed; you review and merge the branch.
Every test run and command runs in an OS sandbox (bubblewrap on Linux, sandbox-exec on macOS).
To say what to build in a sentence instead of a kata file: tdd-agent task "...".

Options:
${SESSION_OPTIONS_USAGE}`;

/** The flags `kata` and `task` share. */
export const SESSION_OPTIONS = {
  ...PROVIDER_OPTIONS,
  workspace: { type: 'string' },
  language: { type: 'string' },
  'test-command': { type: 'string' },
  'test-pattern': { type: 'string', multiple: true },
  'source-dir': { type: 'string' },
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

/** The parsed flags of `kata` and `task`. */
type SessionValues = ReturnType<typeof parseCommandArgs<typeof SESSION_OPTIONS>>['values'];

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

/**
 * Exit code for a finished session: 0 only when it ended with every test green and did not stop short (`incomplete`:
 * the Tester said it was done, and the supervisor did not agree).
 */
export function exitCodeFor(summary: SessionSummary): number {
  return summary.status === 'completed' || summary.status === 'max_cycles' ? EXIT.ok : EXIT.failed;
}

/** `--language`, `--test-command`, `--test-pattern`, `--source-dir` as the session's project overrides (usage errors for bad values). */
export function projectFlags(values: SessionValues): { language?: Language; project?: ProjectOverrides } {
  const language = values.language;
  if (language !== undefined && !isLanguage(language))
    throw new UsageError(`--language must be ${languagesInWords()}, got '${language}'.`);
  const testCommand = values['test-command'];
  if (testCommand !== undefined && !testCommand.trim()) throw new UsageError('--test-command must not be empty.');
  const patterns = values['test-pattern'];
  for (const pattern of patterns ?? []) {
    const problem = relativePathProblem(pattern.replace(/^!/, ''));
    if (problem) throw new UsageError(`--test-pattern '${pattern}' ${problem}.`);
  }
  const sourceDir = values['source-dir'];
  const problem = sourceDir !== undefined ? relativePathProblem(sourceDir) : undefined;
  if (problem) throw new UsageError(`--source-dir '${sourceDir}' ${problem}.`);
  const project: ProjectOverrides = {
    ...(language ? { language } : {}),
    ...(testCommand ? { testCommand: testCommand.trim() } : {}),
    ...(patterns?.length ? { testFilePatterns: patterns } : {}),
    ...(sourceDir !== undefined ? { sourceDir } : {}),
    source: 'flag',
  };
  return { ...(language ? { language } : {}), ...(Object.keys(project).length > 1 ? { project } : {}) };
}

/** What a session command runs: a kata (file or bundled name) or a task in plain words. */
export type SessionTarget = { kataPath: string } | { task: string | TaskSpec };

/**
 * Runs one session for `kata` or `task`: progress on stderr (the project profile first), the summary (with the
 * profile) on stdout with --json, how to review and take the branch otherwise.
 */
export async function runSessionCommand(
  target: SessionTarget,
  values: SessionValues,
  yes: string | boolean | undefined,
  io: CliIo,
  defaults: { cassette?: string; workspace?: string; yes?: string } = {},
): Promise<number> {
  const { language, project } = projectFlags(values);
  const autoApprove = approveUpTo(yes ?? defaults.yes);
  const sandbox = sandboxFlag(values.sandbox);
  if (values.session !== undefined && !values.resume) throw new UsageError('--session goes with --resume.');
  if (values.resume && values['from-working-tree'])
    throw new UsageError(
      '--resume and --from-working-tree conflict: a resumed session continues in its own worktree, so your uncommitted files would not be copied. Drop one of them.',
    );
  // Every flag is checked before the provider is resolved: a bad value is named before any network probe.
  const maxCycles = intFlag(values['max-cycles'], 'max-cycles');
  const testTimeoutMs = intFlag(values['test-timeout'], 'test-timeout');
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
  let profile: ProjectProfile | undefined;
  try {
    const summary = await runKataSession({
      workspace: resolve(values.workspace ?? defaults.workspace ?? process.cwd()),
      ...target, // a kata file path is resolved against the current folder, like --workspace
      ...(language ? { language } : {}),
      ...(project ? { project } : {}),
      llm: model.llm,
      model: model.model,
      provider: model.provider,
      maxCycles,
      control,
      approvalPolicy: autoApprove ? { autoApproveUpTo: autoApprove } : {},
      qualityGates: values['quality-gate'],
      testTimeoutMs,
      modelTimeoutMs: model.timeoutMs,
      mcpServers,
      onMcpServers: (statuses) => io.stderr.write(mcpLines(statuses)),
      agentsDir: values['agents-dir'] !== undefined ? resolve(values['agents-dir']) : undefined,
      fromWorkingTree: values['from-working-tree'],
      resume: values.resume ? (values.session ?? true) : false,
      sandbox,
      signal: io.signal,
      onEvent: (event) => {
        if (event.type === 'project_profile') profile = event.profile;
        print(event);
      },
    });
    if (values.json) io.stdout.write(`${JSON.stringify(profile ? { ...summary, profile } : summary)}\n`);
    else io.stderr.write(reviewHint(summary));
    return exitCodeFor(summary);
  } catch (err) {
    // A sentence given to `kata`: say how to run it as a task.
    if (err instanceof KataError && err.details.looksLikeTask === true && 'kataPath' in target)
      throw new KataError(`${err.message} Run: tdd-agent task ${JSON.stringify(target.kataPath)}`, err.details, { cause: err });
    throw err;
  } finally {
    control.close();
    transport.close();
  }
}

/** `tdd-agent kata`: one session, progress on stderr, the summary on stdout with --json. */
export async function kataCommand(
  argv: string[],
  io: CliIo,
  defaults: { cassette?: string; workspace?: string; yes?: string } = {},
): Promise<number> {
  const pulled = extractYes(argv);
  const { values, positionals } = parseCommandArgs(pulled.argv, SESSION_OPTIONS);
  if (values.help) {
    io.stdout.write(`${KATA_USAGE}\n`);
    return EXIT.ok;
  }
  const kataPath = positionals[0];
  if (!kataPath || positionals.length > 1)
    throw new UsageError(
      positionals.length > 1
        ? `Give exactly one kata: a markdown file or the name of a bundled kata (tdd-agent katas lists them). To say what to build in words: tdd-agent task ${JSON.stringify(positionals.join(' '))}`
        : 'Give exactly one kata: a markdown file or the name of a bundled kata (tdd-agent katas lists them).',
    );
  return runSessionCommand({ kataPath }, values, pulled.yes, io, defaults);
}
