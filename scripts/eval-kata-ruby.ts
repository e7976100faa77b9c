/**
 * The Ruby part of the eval kata set: an exercise's Ruby interface (a module in lib/<file>.rb with module methods)
 * and the RSpec acceptance file made from its canonical cases. scripts/generate-eval-katas.ts calls it as the `ruby`
 * row of its emitters.
 *
 * The file goes to acceptance/<slug>_spec.rb and loads the code with `require_relative '../lib/<file>'`. It is one
 * `RSpec.describe` per exercise, each canonical case an example whose description is the case's and ends with
 * `[<case uuid>]`. A method that can fail raises `ArgumentError` whose message is exactly the canonical text.
 */

/** One module method: its name (`leap?`) and its parameters (canonical input keys, in order, in snake_case). */
export interface RubyMethod {
  name: string;
  params: Array<[key: string, name: string]>;
  /** It raises `ArgumentError`: the exercise has cases that expect an error. */
  errors?: boolean;
}

/** An exercise in Ruby: its file (lib/<file>.rb), module, and a method per canonical property. */
export interface RubyInterface {
  file: string;
  module: string;
  methods: Record<string, RubyMethod>;
}

/** What the Ruby emitter reads of a canonical case. */
export interface RubyCase {
  uuid: string;
  property: string;
  input: Record<string, unknown>;
  expected: unknown;
}

/** `Leap.leap?(year)`, as the kata's interface section states it. */
export function rubySignature(ruby: RubyInterface, method: RubyMethod): string {
  return `${ruby.module}.${method.name}(${method.params.map(([, name]) => name).join(', ')})`;
}

/** A Ruby literal: double-quoted strings (JSON's escapes, `#` before `{`, `$` or `@` escaped), arrays, hashes. */
export function rubyValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value).replace(/#(?=[{$@])/g, '\\#');
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a Ruby Integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'nil';
  if (Array.isArray(value)) return `[${value.map(rubyValue).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${rubyValue(k)} => ${rubyValue(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  throw new Error(`no Ruby literal for ${String(value)}`);
}

const errorOf = (expected: unknown): string | undefined =>
  expected &&
  typeof expected === 'object' &&
  !Array.isArray(expected) &&
  typeof (expected as { error?: unknown }).error === 'string'
    ? (expected as { error: string }).error
    : undefined;

/** One example: the call and what it returns (`be` for true, false and nil, `eq` otherwise) or raises. */
function example(ruby: RubyInterface, c: RubyCase, name: string): string {
  const method = ruby.methods[c.property];
  if (!method) throw new Error(`no Ruby method for the property '${c.property}'`);
  const args = method.params.map(([key]) => {
    if (!(key in c.input)) throw new Error(`case ${c.uuid} has no input '${key}'`);
    return rubyValue(c.input[key]);
  });
  const call = `${ruby.module}.${method.name}(${args.join(', ')})`;
  const error = errorOf(c.expected);
  if (error !== undefined && !method.errors) throw new Error(`case ${c.uuid} expects an error, but ${method.name} raises none`);
  const expectation =
    error !== undefined
      ? `expect { ${call} }.to raise_error(ArgumentError, ${rubyValue(error)})`
      : typeof c.expected === 'boolean' || c.expected === null
        ? `expect(${call}).to be(${rubyValue(c.expected)})`
        : `expect(${call}).to eq(${rubyValue(c.expected)})`;
  return [`  it ${rubyValue(name)} do`, `    ${expectation}`, '  end'].join('\n');
}

/** The RSpec acceptance file: `header` (comment lines), the require of the code, and an example per case. */
export function rubyTests(
  ruby: RubyInterface,
  header: string,
  title: string,
  cases: RubyCase[],
  name: (c: RubyCase) => string,
): string {
  return [
    header,
    `require_relative ${rubyValue(`../lib/${ruby.file}`)}`,
    '',
    `RSpec.describe ${rubyValue(`${title} (acceptance)`)} do`,
    cases.map((c) => example(ruby, c, name(c))).join('\n\n'),
    'end',
    '',
  ].join('\n');
}
