/**
 * One example (or rule with examples) a kata or a task states: how it reads (`15 → "FizzBuzz"`), and the values a test
 * of it spells out (`FizzBuzz`; for a rule, any one of its examples: `1996` or `2012`). The supervisor holds a Tester's
 * `KATA_COMPLETE` against these (see `completionCheck.ts`).
 */
export interface StatedExample {
  /** The example as the kata writes it, on one line: `15 → "FizzBuzz"`, `add("1,2") → 3`. */
  text: string;
  /** What a test of it expects, without quotes or code marks (any one of them will do): `FizzBuzz`, `3`. */
  values: string[];
}

/** A heading whose section lists examples: `## Examples`, `### Example games`. */
const EXAMPLES_HEADING = /example/i;
/** A heading whose section lists rules: `## Rules`, `## Steps (one behaviour per cycle)`, `## Behaviour`. */
const RULES_HEADING = /rule|step|behaviou?r/i;
/** Words that pair a code span with the value it gives: `` `add("1")` is `1` ``, `` `f(x)` returns `"y"` ``. */
const PAIR_WORDS = /^\s+(?:is|returns|gives|equals|yields|fails with|raises|throws)\s+$/;
/** An arrow inside a code span: `` `1 → "I"` ``. */
const ARROW_IN_SPAN = /^(.*?)\s*(?:→|->|=>)\s*(.+?)\s*$/;
/** A code span (left to right, so that each closing mark pairs with its own opening one). */
const CODE_SPAN = /`([^`\n]+)`/g;
/** In a list item: what stands before an arrow, and the literal right after it (`` `G` and `T` → 1 ``, `2 → [2]`). */
const ITEM_ARROW = /([^→,;]*?)\s*(?:→|->|=>)\s*(`[^`\n]+`|"[^"\n]+"|“[^”\n]+”|\[[^\]\n]*\]|-?\d+(?:\.\d+)?(?![\w]))/g;
/** A literal of a list item: a code span, a quoted string, or a number. */
const LITERAL = /`([^`\n]+)`|"([^"\n]+)"|“([^”\n]+)”|(?<![\w.])(-?\d+(?:\.\d+)?)(?!\w|\.\d)/g;
/** A Markdown table's separator row: `|----|:---:|`. */
const TABLE_SEPARATOR = /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/**
 * The examples a kata states, read the same way every time (no model involved):
 * - in a section whose heading says "example": each data row of a table (the last cell is the expected value), and
 *   each list item (the value after its arrow, `` `G` and `T` → 1 ``; else its last code span, quoted string or number,
 *   parenthesised remarks left out: "Twenty rolls of 0 (a gutter game) score 0." expects 0);
 * - anywhere in the text: a code span with an arrow (`` `4 → "IV"` ``: `IV`), and a code span paired with another by
 *   "is", "returns", "gives", "equals", "fails with", "raises" or "throws" (`` `add("1,2")` is `3` ``: `3`).
 *
 * Fenced code blocks are left out. Examples that expect the same value are one (the first one is kept): FizzBuzz's `3`
 * and `6` both expect `Fizz`, and one test of `Fizz` covers the behaviour. Rules stated in words alone (with no such
 * example) are not read: nothing deterministic tells whether a test covers them.
 */
export function statedExamples(description: string): StatedExample[] {
  const found: StatedExample[] = [];
  let inExamples = false;
  let inRules = false;
  let inFence = false;
  let tableHeaderSeen = false;
  for (const raw of description.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      inExamples = EXAMPLES_HEADING.test(heading[1]!);
      inRules = !inExamples && RULES_HEADING.test(heading[1]!);
      tableHeaderSeen = false;
      continue;
    }
    const inline = inlineExamples(line);
    found.push(...inline);
    const ruleItem = inRules ? /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line) : null;
    if (ruleItem && inline.length === 0) {
      const rule = ruleExample(ruleItem[1]!);
      if (rule) found.push(rule);
    }
    if (!inExamples) continue;
    if (/^\s*\|/.test(line)) {
      if (TABLE_SEPARATOR.test(line.trim())) continue;
      if (!tableHeaderSeen) {
        tableHeaderSeen = true;
        continue;
      }
      const row = tableRow(line);
      if (row) found.push(row);
      continue;
    }
    tableHeaderSeen = false;
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item && inline.length === 0) found.push(...listItemExamples(item[1]!));
  }
  return distinctByExpected(found);
}

/**
 * The examples a task in plain words states: its pairs and arrows as in a kata (see {@link statedExamples}), and every
 * other value it puts in double quotes or backticks (`Add parse_size so that "1KB" is 1024`: `1KB`). A code span that
 * names a function (`slugify(text)`, `foreign_key`) expects that name. Only the sentence counts (the text before its
 * first blank line), not the code or file sent along with it.
 */
export function taskExamples(description: string): StatedExample[] {
  const sentence = (description.split(/\n\s*\n/)[0] ?? '').replace(/\s*\n\s*/g, ' ');
  const { examples: pairs, used } = inlineMatches(sentence);
  let rest = sentence;
  for (const [start, end] of [...used].reverse()) rest = `${rest.slice(0, start)} ${rest.slice(end)}`;
  const values: StatedExample[] = [];
  for (const m of rest.matchAll(/`([^`\n]+)`|"([^"\n]+)"|“([^”\n]+)”/g)) {
    const value = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    const name = /^([A-Za-z_$][\w$.]*)\s*(?:\(.*\))?$/.exec(value)?.[1];
    const expected = m[1] !== undefined && name ? name : unquote(value);
    if (expected) values.push({ text: m[0], values: [expected] });
  }
  return distinctByExpected([...pairs, ...values]);
}

/** The pairs and arrows of one line (see {@link statedExamples}), with the code spans they took. */
function inlineExamples(line: string): StatedExample[] {
  return inlineMatches(line).examples;
}

function inlineMatches(line: string): { examples: StatedExample[]; used: Array<[number, number]> } {
  const spans = [...line.matchAll(CODE_SPAN)].map((m) => ({ start: m.index, end: m.index + m[0].length, code: m[1]! }));
  const examples: StatedExample[] = [];
  const used: Array<[number, number]> = [];
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const next = spans[i + 1];
    if (next && PAIR_WORDS.test(line.slice(span.end, next.start))) {
      const expected = unquote(next.code);
      if (expected) examples.push({ text: `${span.code.trim()} → ${next.code.trim()}`, values: [expected] });
      used.push([span.start, next.end]);
      i++;
      continue;
    }
    const arrow = ARROW_IN_SPAN.exec(span.code);
    if (arrow) {
      const expected = unquote(arrow[2]!);
      if (expected) examples.push({ text: `${arrow[1]!.trim()} → ${arrow[2]!.trim()}`, values: [expected] });
      used.push([span.start, span.end]);
    }
  }
  return { examples, used };
}

/** A table's data row: the cells before the last are the input, the last one the expected value. */
function tableRow(line: string): StatedExample | undefined {
  const cells = line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
  if (cells.length < 2) return undefined;
  const shown = cells.map(stripCode);
  const expected = unquote(shown.at(-1)!);
  if (!expected) return undefined;
  return { text: `${shown.slice(0, -1).join(', ')} → ${shown.at(-1)!}`, values: [expected] };
}

/**
 * The examples of a list item of an examples section: each arrow's literal (`3 → \`Pling\`, 10 → \`Plang\``: two; an
 * answer in plain words, `→ error`, is not a value a test spells out, and is left out), or, without an arrow, its last
 * literal, parenthesised remarks left out.
 */
function listItemExamples(item: string): StatedExample[] {
  const text = item.trim();
  if (/→|->|=>/.test(text)) {
    const arrows = [...text.matchAll(ITEM_ARROW)];
    return arrows.flatMap((m) => {
      const expected = unquote(m[2]!);
      const shown = arrows.length === 1 ? text : `${m[1]!.trim()} → ${m[2]!}`;
      return expected ? [{ text: oneLine(shown), values: [expected] }] : [];
    });
  }
  const withoutRemarks = text.replace(/\([^)]*\)/g, ' ');
  const literal = [...withoutRemarks.matchAll(LITERAL)].at(-1);
  const expected = literal ? literalValue(literal) : undefined;
  return expected ? [{ text: oneLine(text), values: [expected] }] : [];
}

/**
 * A rule of a rules section with examples of its own: the values in its parentheses (`A year divisible by 4 is a leap
 * year (1996, 2012)`: 1996 or 2012), or else its code spans and quoted strings (`An empty string returns \`0\``: 0).
 * A rule in words alone gives none.
 */
function ruleExample(item: string): StatedExample | undefined {
  const text = item.trim();
  const inParentheses = [...text.matchAll(/\(([^)]*)\)/g)].flatMap((m) => [...m[1]!.matchAll(LITERAL)].map(literalValue));
  const values = inParentheses.length
    ? inParentheses
    : [...text.matchAll(LITERAL)].filter((m) => m[4] === undefined).map(literalValue);
  const distinct = [...new Set(values.filter((v) => v !== ''))];
  return distinct.length ? { text: oneLine(text), values: distinct } : undefined;
}

function literalValue(m: RegExpMatchArray): string {
  return unquote((m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim());
}

/** `` `"Fizz"` `` → `"Fizz"`: the text inside code marks. */
function stripCode(text: string): string {
  const code = /^`([^`]*)`$/.exec(text.trim());
  return code ? code[1]! : text;
}

/** `"Fizz"` → `Fizz`, `'1'` → `1`: one pair of surrounding quotes taken off (and code marks). */
function unquote(text: string): string {
  const t = stripCode(text.trim())
    .trim()
    .replace(/[.,;]$/, '');
  const quoted = /^(["'“])(.*)(["'”])$/.exec(t);
  return (quoted ? quoted[2]! : t).trim();
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

function distinctByExpected(examples: readonly StatedExample[]): StatedExample[] {
  const seen = new Set<string>();
  return examples.filter((e) => {
    const key = JSON.stringify(e.values);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/**
 * True when `text` (a test file's) contains the value: as written, with no letter, digit or `_` right before or after
 * it (so `Fizz` is not found inside `FizzBuzz`, nor `15` inside `150`), any run of spaces matching any other.
 */
export function mentionsValue(text: string, value: string): boolean {
  const escaped = value
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s*');
  if (!escaped) return false;
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`).test(text);
}
