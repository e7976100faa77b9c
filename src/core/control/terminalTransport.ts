import { randomUUID } from 'node:crypto';
import { createInterface, type Interface } from 'node:readline';
import { escapeTerminalText } from '../security/terminalText';
import { dangerRank, type DangerLevel } from '../vocabulary';
import type { AgentToPersonMessage, ApprovalRequestMessage, QuestionMessage, ToolCallPreviewMessage } from './messages';
import { Listeners, type ControlTransport } from './transport';

/** Options of a TerminalTransport. */
export interface TerminalTransportOptions {
  /** Where answers are read from, a line at a time (stdin in the CLI, a PassThrough in tests). */
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where prompts and progress go (stderr in the CLI: stdout carries results). */
  output: NodeJS.WritableStream;
  /** `--yes[=LEVEL]`: approve requests up to this danger level without asking. */
  autoApproveUpTo?: DangerLevel;
  /** Whether a person can answer; defaults to `input.isTTY`. When false, unanswerable requests are denied at once. */
  interactive?: boolean;
  /** `answeredBy` of a typed answer (default `terminal`). */
  answeredBy?: string;
  /** Longest parameter/preview text printed in a prompt (default 2000 characters). */
  maxShownChars?: number;
}

type Prompt = { kind: 'approval'; message: ApprovalRequestMessage } | { kind: 'question'; message: QuestionMessage };

/**
 * The CLI's control channel: approval prompts and questions on stderr, answers read from an
 * input stream one line at a time, one prompt at a time. `y` approves once, `n` denies, `a`
 * always allows the tool for this session; anything else asks again. `--yes` approves up to the
 * chosen level without asking. Without a person to ask (input not a TTY, or closed) a request
 * the `--yes` level does not cover is denied at once with a reason, never left hanging.
 * A line typed while nothing is asked is sent to the agent as `user_input`.
 * Everything written goes through `escapeTerminalText`: tool names, params, previews, reasons and
 * questions come from the model and are shown, never interpreted (`ESC` appears as `\x1b`). The
 * transport writes no styling sequences of its own.
 */
export class TerminalTransport implements ControlTransport {
  private readonly toAgent = new Listeners<unknown>();
  private readonly queue: Prompt[] = [];
  private active: Prompt | undefined;
  private readonly lines: Interface | undefined;
  private inputEnded = false;
  private readonly interactive: boolean;
  private readonly answeredBy: string;
  private readonly maxShown: number;

  constructor(private readonly options: TerminalTransportOptions) {
    this.interactive = options.interactive ?? options.input.isTTY === true;
    this.answeredBy = options.answeredBy ?? 'terminal';
    this.maxShown = options.maxShownChars ?? 2000;
    // Without a person at the terminal, stdin is left alone (it may carry other data) and never read.
    if (this.interactive) {
      this.lines = createInterface({ input: options.input, terminal: false, crlfDelay: Infinity });
      this.lines.on('line', (line) => this.onLine(line));
      this.lines.on('close', () => this.onInputEnd());
    }
  }

  /** Shows or answers one agent message. */
  send(message: AgentToPersonMessage): void {
    switch (message.type) {
      case 'approval_request':
        return this.onApprovalRequest(message);
      case 'question':
        if (!this.canAsk()) {
          this.write(`? ${message.text}\n  (no one can answer here: continuing without an answer)\n`);
          return this.reply({ type: 'answer', id: message.id, text: '', answeredBy: this.answeredBy, declined: true });
        }
        return this.enqueue({ kind: 'question', message });
      case 'progress':
        return this.write(`· ${message.message}\n`);
      case 'cancel':
        return this.onCancel(message.id, message.reason);
    }
  }

  /** Subscribes to answers and user input. */
  onMessage(handler: (message: unknown) => void): () => void {
    return this.toAgent.add(handler);
  }

  /** Stops reading input (does not close the stream itself). Call it when the run ends: reading stdin keeps Node alive. */
  close(): void {
    this.lines?.close();
    this.toAgent.clear();
  }

  private onApprovalRequest(message: ApprovalRequestMessage): void {
    const yes = this.options.autoApproveUpTo;
    if (yes && dangerRank(message.dangerLevel) <= dangerRank(yes)) {
      this.write(`✓ ${message.tool} (${message.dangerLevel}) approved by --yes=${yes}\n`);
      return this.reply({
        type: 'approval_response',
        id: message.id,
        decision: 'approve',
        answeredBy: `${this.answeredBy}:--yes`,
      });
    }
    if (!this.canAsk()) {
      const why = this.inputEnded ? 'the terminal input is closed' : 'the input is not an interactive terminal';
      const hint = yes
        ? `--yes=${yes} does not cover ${message.dangerLevel}; rerun with --yes=${message.dangerLevel} or interactively`
        : `rerun interactively, or with --yes=${message.dangerLevel} to approve up to that level`;
      this.write(`✗ ${message.tool} (${message.dangerLevel}) denied: ${why}\n`);
      return this.reply({
        type: 'approval_response',
        id: message.id,
        decision: 'deny',
        answeredBy: `${this.answeredBy}:non-interactive`,
        reason: `${why}, so no one could approve it (${hint})`,
      });
    }
    this.enqueue({ kind: 'approval', message });
  }

  private canAsk(): boolean {
    return this.interactive && !this.inputEnded;
  }

  private enqueue(prompt: Prompt): void {
    this.queue.push(prompt);
    if (!this.active) this.next();
  }

  private next(): void {
    this.active = this.queue.shift();
    if (this.active) this.show(this.active);
  }

  private show(prompt: Prompt): void {
    if (prompt.kind === 'question') {
      const { text, choices } = prompt.message;
      const list = choices?.length ? `\n${choices.map((c, i) => `  ${i + 1}) ${c}`).join('\n')}` : '';
      this.write(`? ${text}${list}\n> `);
      return;
    }
    const m = prompt.message;
    const parts = [`? Approve ${m.tool} (danger ${m.dangerLevel})?${m.reason ? ` ${m.reason}` : ''}`];
    parts.push(`  params: ${this.clip(safeJson(m.params))}`);
    if (m.preview)
      parts.push(
        this.clip(previewText(m.preview))
          .split('\n')
          .map((line) => `  | ${line}`)
          .join('\n'),
      );
    parts.push(
      `  [y] approve once  [n] deny  [a] always allow ${m.tool} this session  (denied automatically in ${Math.round(m.timeoutMs / 1000)} s)`,
    );
    this.write(`${parts.join('\n')}\n> `);
  }

  private onLine(raw: string): void {
    const line = raw.trim();
    const prompt = this.active;
    if (!prompt) {
      if (line) this.reply({ type: 'user_input', id: randomUUID(), text: line });
      return;
    }
    if (prompt.kind === 'question') {
      const choices = prompt.message.choices ?? [];
      const index = /^\d+$/.test(line) ? Number(line) - 1 : -1;
      const text = index >= 0 && index < choices.length ? choices[index]! : line;
      this.reply({ type: 'answer', id: prompt.message.id, text, answeredBy: this.answeredBy });
      return this.next();
    }
    const decision = parseDecision(line);
    if (!decision) {
      this.write(`Please answer y (approve once), n (deny) or a (always allow ${prompt.message.tool} this session).\n> `);
      return;
    }
    this.reply({ type: 'approval_response', id: prompt.message.id, decision, answeredBy: this.answeredBy });
    this.next();
  }

  private onCancel(id: string, reason: string): void {
    const index = this.queue.findIndex((p) => p.message.id === id);
    if (index >= 0) this.queue.splice(index, 1);
    if (this.active?.message.id === id) {
      this.write(`\n(${reason === 'timeout' ? 'no answer in time: denied' : 'request withdrawn'})\n`);
      this.next();
    }
  }

  private onInputEnd(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    const open = [...(this.active ? [this.active] : []), ...this.queue.splice(0)];
    this.active = undefined;
    for (const prompt of open) {
      if (prompt.kind === 'approval') {
        this.reply({
          type: 'approval_response',
          id: prompt.message.id,
          decision: 'deny',
          answeredBy: `${this.answeredBy}:non-interactive`,
          reason: 'the terminal input closed before anyone answered',
        });
      } else {
        this.reply({ type: 'answer', id: prompt.message.id, text: '', answeredBy: this.answeredBy, declined: true });
      }
    }
  }

  private reply(message: unknown): void {
    this.toAgent.emit(message);
  }

  /** The one way out to the terminal: control characters shown as `\xHH`, never sent raw. */
  private write(text: string): void {
    this.options.output.write(escapeTerminalText(text));
  }

  private clip(text: string): string {
    return text.length > this.maxShown
      ? `${text.slice(0, this.maxShown)}… [${text.length - this.maxShown} more characters]`
      : text;
  }
}

function parseDecision(line: string): 'approve' | 'deny' | 'always' | undefined {
  switch (line.toLowerCase()) {
    case 'y':
    case 'yes':
      return 'approve';
    case 'n':
    case 'no':
      return 'deny';
    case 'a':
    case 'always':
      return 'always';
    default:
      return undefined;
  }
}

function previewText(preview: ToolCallPreviewMessage): string {
  switch (preview.kind) {
    case 'diff':
      return preview.diff;
    case 'command':
      return `$ ${preview.commandLine}`;
    case 'request':
      return `${preview.method} ${preview.url}${preview.hasBody ? ' (with a body)' : ''}`;
    case 'text':
      return preview.text;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
