/**
 * The Rust part of the eval kata set: an exercise's Rust interface (free functions at the root of the kata's library
 * crate, `src/lib.rs`) and the acceptance file made from its canonical cases. scripts/generate-eval-katas.ts calls it
 * as the `rust` row of its emitters.
 *
 * The file is an integration test, as Exercism's Rust track writes them: the eval copies it to `tests/<crate>.rs` of
 * the session's final commit and runs `cargo test --test <crate>`, so only its own tests run. It imports the functions
 * by name (`use leap::is_leap_year;`). Each canonical case is a `#[test] fn` named after the case's words in
 * snake_case and ending with the first eight hex digits of its UUID (`year_divisible_by_400_is_leap_year_42ee56ad`):
 * a Rust name holds no `[` or `-`, and the short form is checked unique within the file. A function that can fail
 * returns `Result<_, String>`; an error case expects `Err` with exactly the canonical text. Written for Rust 1.63
 * (edition 2021), Debian 12's rustc, which .ci/run installs where rustup is missing.
 */

/** The Rust types the set's functions take (borrowed) and return (owned). */
export type RustType =
  | 'u32'
  | 'u64'
  | 'i64'
  | 'usize'
  | 'bool'
  | '&str'
  | 'String'
  | '&[u32]'
  | '&[&str]'
  | 'Vec<u64>'
  | 'Vec<String>'
  | 'HashMap<String, u32>';

/** One public function: its name, its parameters (canonical input key, Rust name, type, in order) and its result. */
export interface RustFunction {
  name: string;
  params: Array<[key: string, name: string, type: RustType]>;
  result: RustType;
  /** It returns `Result<result, String>`: the exercise has cases that expect an error. */
  errors?: boolean;
}

/** An exercise in Rust: its crate (the kata's package, in Rust's spelling) and a function per canonical property. */
export interface RustInterface {
  crate: string;
  functions: Record<string, RustFunction>;
}

/** What the Rust emitter reads of a canonical case (nested group descriptions and its own in `path`). */
export interface RustCase {
  uuid: string;
  property: string;
  input: Record<string, unknown>;
  expected: unknown;
  path: string[];
}

/** The function's return type as declared: `Result<i64, String>` for one that can fail. */
export const rustReturn = (fn: RustFunction): string => (fn.errors ? `Result<${fn.result}, String>` : fn.result);

/** `pub fn is_leap_year(year: u64) -> bool`, as the kata's interface section states it. */
export function rustSignature(fn: RustFunction): string {
  const params = fn.params.map(([, name, type]) => `${name}: ${type}`).join(', ');
  return `pub fn ${fn.name}(${params}) -> ${rustReturn(fn)}`;
}

/** A Rust string literal: JSON's, with `\uXXXX` as Rust's `\u{XXXX}`. */
const rustString = (value: string): string => JSON.stringify(value).replace(/\\u([0-9a-f]{4})/g, '\\u{$1}');

/** A Rust expression of `type` that compares equal to the function's result (or is the argument passed); a map is a call of the file's `counts`. */
export function rustValue(value: unknown, type: RustType): string {
  if (type === 'u32' || type === 'u64' || type === 'usize' || type === 'i64') {
    if (!Number.isSafeInteger(value) || (type !== 'i64' && (value as number) < 0))
      throw new Error(`not a Rust ${type}: ${JSON.stringify(value)}`);
    return String(value);
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new Error(`not a Rust bool: ${JSON.stringify(value)}`);
    return String(value);
  }
  if (type === '&str' || type === 'String') {
    if (typeof value !== 'string') throw new Error(`not a Rust string: ${JSON.stringify(value)}`);
    return rustString(value);
  }
  if (type === 'HashMap<String, u32>') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`not a map: ${JSON.stringify(value)}`);
    const entries = Object.entries(value).map(([k, v]) => `(${rustString(k)}, ${rustValue(v, 'u32')})`);
    return `counts(&[${entries.join(', ')}])`;
  }
  if (!Array.isArray(value)) throw new Error(`not a Rust slice: ${JSON.stringify(value)}`);
  const element: RustType = type === '&[u32]' ? 'u32' : type === 'Vec<u64>' ? 'u64' : '&str';
  const items = value.map((v) => rustValue(v, element));
  if (type.startsWith('&')) return `&[${items.join(', ')}]`;
  // A Vec<String> equals a Vec<&str> of the same words; an empty one needs its element type.
  return items.length ? `vec![${items.join(', ')}]` : `Vec::<${element}>::new()`;
}

const errorOf = (expected: unknown): string | undefined =>
  expected &&
  typeof expected === 'object' &&
  !Array.isArray(expected) &&
  typeof (expected as { error?: unknown }).error === 'string'
    ? (expected as { error: string }).error
    : undefined;

/** `year_divisible_by_400_is_leap_year_42ee56ad`: the case's words in snake_case, then its UUID's first 8 hex digits. */
export function rustTestName(c: RustCase): string {
  const words = c.path
    .join(' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${/^[a-z]/.test(words) ? '' : 'case_'}${words}_${c.uuid.slice(0, 8)}`;
}

/** One case's `#[test] fn`, its doc comment the case's full name (`… [<case uuid>]`). */
function caseTest(fn: RustFunction, c: RustCase, name: string, fullName: string): string {
  const args = fn.params.map(([key, , type]) => {
    if (!(key in c.input)) throw new Error(`case ${c.uuid} has no input '${key}'`);
    return rustValue(c.input[key], type);
  });
  const call = `${fn.name}(${args.join(', ')})`;
  const error = errorOf(c.expected);
  if (error !== undefined && !fn.errors) throw new Error(`case ${c.uuid} expects an error, but ${fn.name} returns none`);
  const expected =
    error !== undefined
      ? `Err(${rustString(error)}.to_string())`
      : fn.errors
        ? `Ok(${rustValue(c.expected, fn.result)})`
        : rustValue(c.expected, fn.result);
  return [`/// ${fullName}`, '#[test]', `fn ${name}() {`, `    assert_eq!(${call}, ${expected});`, '}'].join('\n');
}

/** A map's expected value is written as its pairs, `counts(&[("one", 1)])`. */
const COUNTS = [
  'fn counts(pairs: &[(&str, u32)]) -> HashMap<String, u32> {',
  '    pairs.iter().map(|&(word, count)| (word.to_string(), count)).collect()',
  '}',
].join('\n');

/**
 * The acceptance file: `header` (comment lines), the crate's functions imported by name, a `#[test] fn` per case with
 * the case's full name (`fullName`) as its doc comment.
 */
export function rustTests(rust: RustInterface, header: string, cases: RustCase[], fullName: (c: RustCase) => string): string {
  const taken = new Set<string>();
  const tests = cases.map((c) => {
    const fn = rust.functions[c.property];
    if (!fn) throw new Error(`no Rust function for the property '${c.property}'`);
    const name = rustTestName(c);
    if (taken.has(name)) throw new Error(`two cases are named ${name}: the short UUID does not tell them apart`);
    taken.add(name);
    return caseTest(fn, c, name, fullName(c));
  });
  const names = Object.values(rust.functions).map((f) => f.name);
  const usesMap = Object.values(rust.functions).some((f) => f.result.startsWith('HashMap'));
  return [
    header,
    ...(usesMap ? ['use std::collections::HashMap;', ''] : []),
    `use ${rust.crate}::${names.length > 1 ? `{${names.join(', ')}}` : names[0]};`,
    '',
    ...(usesMap ? [COUNTS, ''] : []),
    tests.join('\n\n'),
    '',
  ].join('\n');
}
