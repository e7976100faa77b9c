import { CoTAgent, type CoTOutput, cotSteps, escapeTerminalText, QAAgent, type QAOutput } from '../../core';
import { lineRange, parseCommandArgs, PROVIDER_OPTIONS } from '../args';
import { EXIT, UsageError, type CliIo } from '../cliIo';
import { readFlagFile } from '../flagFile';
import { modelFromFlags } from '../providerFromFlags';

/** The two single-question commands: `ask` (QA agent) and `cot` (chain-of-thought agent). */
export type QuestionKind = 'ask' | 'cot';

/** `tdd-agent ask --help` and `tdd-agent cot --help`. */
export const QUESTION_USAGE: Record<QuestionKind, string> = {
  ask: `Usage: tdd-agent ask [--file F [--lines A-B]] [options] "question"

Answers a question, optionally about a file or a range of its lines (QA agent).
Options: --provider P, --base-url URL, --model NAME, --ollama-host URL, --cassette FILE, --record FILE, --timeout MS, --json`,
  cot: `Usage: tdd-agent cot [--file F [--lines A-B]] [options] "problem"

Works through a problem step by step, optionally about a file or a range of its lines (chain-of-thought agent).
Options: --provider P, --base-url URL, --model NAME, --ollama-host URL, --cassette FILE, --record FILE, --timeout MS, --json`,
};

const OPTIONS = { ...PROVIDER_OPTIONS, file: { type: 'string' }, lines: { type: 'string' } } as const;

/** The largest `--file` read: 8 MiB (with --lines, a range of a large file is asked about). */
const MAX_QUESTION_FILE_BYTES = 8 * 1024 * 1024;

/** Reads the file (or the chosen lines) the question is about, numbered so answers can point at lines. */
async function contextFrom(file: string | undefined, lines: string | undefined): Promise<string> {
  const range = lineRange(lines);
  if (!file) {
    if (range) throw new UsageError('--lines needs --file.');
    return '';
  }
  const text = await readFlagFile('--file', file, MAX_QUESTION_FILE_BYTES);
  const all = text.split('\n');
  const [from, to] = range ?? [1, all.length];
  if (from > all.length) throw new UsageError(`--lines ${lines}: ${file} has only ${all.length} lines.`);
  const picked = all.slice(from - 1, Math.min(to, all.length));
  return `File ${file}, lines ${from}-${from + picked.length - 1}:\n${picked.map((l, i) => `${String(from + i).padStart(4)} | ${l}`).join('\n')}`;
}

/** `tdd-agent ask|cot`: one agent call; the answer on stdout (JSON with --json). */
export async function questionCommand(kind: QuestionKind, argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS);
  if (values.help) {
    io.stdout.write(`${QUESTION_USAGE[kind]}\n`);
    return EXIT.ok;
  }
  const text = positionals.join(' ').trim();
  if (!text)
    throw new UsageError(
      kind === 'ask'
        ? 'Give a question, e.g. tdd-agent ask "What does this function return?"'
        : 'Give a problem, e.g. tdd-agent cot "Why does this loop never end?"',
    );
  const context = await contextFrom(values.file, values.lines);
  const model = await modelFromFlags(values, io.env, io.signal);

  // The agent's own per-call timeout wins over the client's default, so --timeout must reach it.
  const config = { model: model.model, errorHandling: true, ...(model.timeoutMs ? { timeoutMs: model.timeoutMs } : {}) };
  const result =
    kind === 'ask'
      ? await new QAAgent({ llm: model.llm, config }).execute({ question: text, context }, { signal: io.signal })
      : await new CoTAgent({ llm: model.llm, config }).execute({ problem: text, context }, { signal: io.signal });

  if (values.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
  } else if (result.error) {
    io.stderr.write(escapeTerminalText(`Error ${result.error.error_code}: ${result.error.message}\n`));
  } else {
    io.stdout.write(escapeTerminalText(isQAOutput(result) ? qaText(result) : cotText(result)));
  }
  return result.error
    ? result.error.error_code === 'CONFIG' || result.error.error_code === 'PROVIDER_NOT_CONFIGURED'
      ? EXIT.usage
      : EXIT.failed
    : EXIT.ok;
}

function isQAOutput(result: QAOutput | CoTOutput): result is QAOutput {
  return 'answer' in result;
}

function qaText(result: QAOutput): string {
  return `${result.answer}\n\nconfidence: ${result.confidence.toFixed(2)}\nreasoning: ${result.reasoning ?? ''}\n`;
}

function cotText(result: CoTOutput): string {
  const steps = cotSteps(result);
  return `${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n\nAnswer: ${result.final_answer}\nconfidence: ${result.confidence.toFixed(2)}\n`;
}
