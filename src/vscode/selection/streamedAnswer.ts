/**
 * What a QA or CoT answer says so far, read from the model's reply while it streams (pure: no `vscode`). The agents
 * answer in JSON (`{"answer": "…", …}`, `{"step1": "…", …, "final_answer": "…"}`), so the panel shows the string
 * fields as far as they have arrived, never the JSON around them.
 */

/** The value of string field `key` in a JSON text that may stop anywhere; undefined before its opening quote. */
export function streamedField(raw: string, key: string): string | undefined {
  const start = new RegExp(`"${key}"\\s*:\\s*"`).exec(raw);
  if (!start) return undefined;
  let value = '';
  for (let i = start.index + start[0].length; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '"') return value;
    if (char !== '\\') {
      value += char;
      continue;
    }
    const next = raw[i + 1];
    if (next === undefined) return value; // an escape cut in two: wait for the rest
    if (next === 'u') {
      const hex = raw.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return value;
      value += String.fromCharCode(parseInt(hex, 16));
      i += 5;
      continue;
    }
    value += ({ n: '\n', t: '\t', r: '', b: '', f: '' } as Record<string, string>)[next] ?? next;
    i += 1;
  }
  return value;
}

/** The answer so far as Markdown: QA's `answer`; CoT's steps as a numbered list, then its final answer. */
export function streamedAnswerText(kind: 'qa' | 'cot', raw: string): string {
  if (kind === 'qa') return streamedField(raw, 'answer') ?? '';
  const steps = [1, 2, 3, 4, 5]
    .map((n) => streamedField(raw, `step${n}`))
    .filter((step): step is string => step !== undefined && step.trim() !== '');
  const final = streamedField(raw, 'final_answer');
  return [steps.map((step, i) => `${i + 1}. ${step}`).join('\n'), final ? `**Final answer:** ${final}` : '']
    .filter(Boolean)
    .join('\n\n');
}
