import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { formatEvent, progressPrinter } from '../../../src/cli/progressPrinter';
import { ControlProtocol } from '../../../src/core/control/controlProtocol';
import { TerminalTransport } from '../../../src/core/control/terminalTransport';
import { escapeTerminalText } from '../../../src/core/security/terminalText';
import type { SupervisorEvent } from '../../../src/core/tdd/events';

const ESC = '\x1b';
const BEL = '\x07';
const CSI = '\x9b';
/** Cursor up + erase line, a window-title OSC, colours, a one-byte CSI, a lone CR, backspace and DEL. */
const HOSTILE = `${ESC}[1A${ESC}[2K${ESC}]0;innocent title${BEL}${ESC}[32m+ harmless line${ESC}[0m ${CSI}2J over\rwrite\x08\x7f`;

/** Any byte a terminal would act on: C0 except tab and newline, DEL, C1 (as UTF-8 they start with C2 80..9F). */
function controlBytes(raw: Buffer): number[] {
  const found: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i]!;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a) || b === 0x7f) found.push(b);
    if (b === 0xc2 && raw[i + 1]! >= 0x80 && raw[i + 1]! <= 0x9f) found.push(raw[i + 1]!);
  }
  return found;
}

function capture(): { output: PassThrough; raw: () => Buffer } {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (c: Buffer) => chunks.push(c));
  return { output, raw: () => Buffer.concat(chunks) };
}

describe('terminal output shows control characters instead of sending them', () => {
  it('escapeTerminalText shows C0, lone CR, DEL and C1 as \\xHH and keeps newline, tab, CR LF and other text', () => {
    assert.equal(escapeTerminalText(`${ESC}[2K`), '\\x1b[2K');
    assert.equal(escapeTerminalText(`${ESC}]0;t${BEL}`), '\\x1b]0;t\\x07');
    assert.equal(escapeTerminalText('a\rb'), 'a\\x0db');
    assert.equal(escapeTerminalText('a\r\nb'), 'a\r\nb');
    assert.equal(escapeTerminalText('\x00\x7f\x80\x9b\x9f'), '\\x00\\x7f\\x80\\x9b\\x9f');
    assert.equal(
      escapeTerminalText('line\n\tindented — ünïcode ✓ C:\\Users\\n "\\t"'),
      'line\n\tindented — ünïcode ✓ C:\\Users\\n "\\t"',
    );
    // A literal backslash-x cannot pass for an escape made here.
    assert.equal(escapeTerminalText('"\\x1b[2K"'), '"\\x5cx1b[2K"');
    assert.equal(escapeTerminalText(HOSTILE).includes(ESC), false);
  });

  it('escapeTerminalText shows the bidirectional controls (Trojan Source) as \\x{hhhh} and keeps right-to-left text', () => {
    // RLO … PDF makes `access = "user"; // admin` display reversed inside the comment; LRI/PDI and the marks too.
    const trojan = 'if (access !== "user\u202e \u2066// admin\u2069 \u2066") {';
    assert.equal(escapeTerminalText(trojan), 'if (access !== "user\\x{202e} \\x{2066}// admin\\x{2069} \\x{2066}") {');
    assert.equal(
      escapeTerminalText('\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068'),
      [0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x2067, 0x2068].map((c) => `\\x{${c.toString(16)}}`).join(''),
    );
    assert.equal(escapeTerminalText('שלום مرحبا'), 'שלום مرحبا');
  });

  it('TerminalTransport: a hostile preview, params, reason and tool name reach the output escaped, with no control bytes', async () => {
    const { output, raw } = capture();
    const input = new PassThrough();
    const transport = new TerminalTransport({ input, output, interactive: true });
    const control = new ControlProtocol(transport);
    const answer = control.requestApproval({
      tool: `write_file${ESC}[8m`,
      dangerLevel: 'MEDIUM',
      params: { path: `src/a.ts${ESC}[2K`, content: HOSTILE },
      preview: `--- a/src/a.ts\n+++ b/src/a.ts\n${HOSTILE}\n+export const ok = true;`,
      reason: `needs approval ${ESC}]0;pwned${BEL}`,
    });
    const progress = `${ESC}[31mprogress${ESC}[0m`;
    transport.send({ type: 'progress', id: 'p1', message: progress });
    input.write('n\n');
    assert.equal((await answer).outcome, 'denied');
    transport.close();

    const bytes = raw();
    assert.deepEqual(
      controlBytes(bytes),
      [],
      'no ESC, BEL, CSI, CR, BS or DEL reaches the terminal (the transport has no styling of its own)',
    );
    const text = bytes.toString('utf8');
    assert.ok(
      text.includes(
        '  | \\x1b[1A\\x1b[2K\\x1b]0;innocent title\\x07\\x1b[32m+ harmless line\\x1b[0m \\x9b2J over\\x0dwrite\\x08\\x7f',
      ),
      text,
    );
    assert.ok(text.includes('  | +export const ok = true;'), 'the rest of the diff is shown as it is');
    assert.ok(text.includes('Approve write_file\\x1b[8m'));
    assert.ok(text.includes('needs approval \\x1b]0;pwned\\x07'));
    assert.ok(text.includes('\\x1b[31mprogress\\x1b[0m'));
  });

  it('progressPrinter: behaviours, reports, reasons and error messages from the model are printed escaped', () => {
    const { output, raw } = capture();
    const print = progressPrinter(output, true);
    const events: SupervisorEvent[] = [
      { type: 'phase_changed', cycle: 1, phase: 'IMPLEMENTING', role: 'implementer', attempt: 2, hint: `fix it${ESC}[2K` },
      {
        type: 'tool_called',
        cycle: 1,
        role: 'tester',
        callId: 'c1',
        tool: 'write_file',
        params: {},
        ok: true,
        summary: `wrote ${ESC}]0;t${BEL}`,
        approval: 'auto',
        durationMs: 1,
      },
      { type: 'overshoot', cycle: 1, attempt: 1, reason: `already passes\r${ESC}[32mall good` },
      { type: 'commit_made', cycle: 1, sha: '0123456789abcdef', message: `feat: fizz${CSI}1A` },
      { type: 'error', error: { error_code: 'UNKNOWN', message: `boom${ESC}[1A${ESC}[2K`, details: {} } },
    ];
    for (const event of events) print(event);

    const bytes = raw();
    assert.deepEqual(controlBytes(bytes), []);
    const text = bytes.toString('utf8');
    assert.ok(text.includes('fix it\\x1b[2K'));
    assert.ok(text.includes('wrote \\x1b]0;t\\x07'));
    assert.ok(text.includes('already passes\\x0d\\x1b[32mall good'));
    assert.ok(text.includes('feat: fizz\\x9b1A'));
    assert.ok(text.includes('Error UNKNOWN: boom\\x1b[1A\\x1b[2K'));
    assert.equal(formatEvent({ type: 'cycle_started', cycle: 3 }), 'Cycle 3');
  });
});

describe("CLI progress: the roles' own words (issue 11)", () => {
  it("prints a role's report terminal-escaped and indented; text between tool calls only when verbose; deltas never", () => {
    const report: SupervisorEvent = {
      type: 'role_message',
      cycle: 1,
      role: 'tester',
      attempt: 1,
      message: 2,
      text: `returns Fizz for 3\n${ESC}[2Jcleared?`,
      final: true,
    };
    assert.equal(formatEvent(report), '    tester reports: returns Fizz for 3\n      \\x1b[2Jcleared?');
    const between: SupervisorEvent = {
      type: 'role_message',
      cycle: 1,
      role: 'implementer',
      attempt: 1,
      message: 1,
      text: 'Reading the test first.',
      final: false,
    };
    assert.equal(formatEvent(between), undefined);
    assert.equal(formatEvent(between, true), '    implementer: Reading the test first.');
    assert.equal(
      formatEvent({ type: 'role_text', cycle: 1, role: 'tester', attempt: 1, message: 1, delta: 'x' }, true),
      undefined,
    );
  });
});
