/**
 * The Go part of the eval kata set: an exercise's Go interface (its package and typed functions) and the acceptance
 * test file made from its canonical cases. scripts/generate-eval-katas.ts calls it as the `go` row of its emitters.
 *
 * The file is a table test per function, in the package itself (`package leap`), as Exercism's Go track writes them:
 * the eval copies it beside the session's code, at the module's root. Its one top-level name per function,
 * `TestAcceptance<Function>`, is unlikely to meet a name of the session's own tests. Each canonical case is a subtest
 * named after it and ending with `[<case uuid>]` (go test shows spaces as underscores). A function that can fail
 * returns `(value, error)`; an error case expects a non-nil error whose `Error()` is exactly the canonical text.
 */

/** The Go types the set's functions take and return. */
export type GoType = 'int' | 'int64' | 'bool' | 'string' | '[]int' | '[]int64' | '[]string' | 'map[string]int';

/** One exported function: its name, its parameters (canonical input keys, in order) and its result. */
export interface GoFunction {
  name: string;
  params: Array<[key: string, type: GoType]>;
  result: GoType;
  /** It returns `(result, error)`: the exercise has cases that expect an error. */
  errors?: boolean;
}

/** An exercise in Go: its package (the file `<package>.go` at the module's root) and a function per canonical property. */
export interface GoInterface {
  package: string;
  functions: Record<string, GoFunction>;
}

/** What the Go emitter reads of a canonical case (nested group descriptions and its own in `path`). */
export interface GoCase {
  uuid: string;
  property: string;
  input: Record<string, unknown>;
  expected: unknown;
  path: string[];
}

/** `func IsLeap(year int) bool`, as the kata's interface section states it. */
export function goSignature(fn: GoFunction): string {
  const params = fn.params.map(([key, type]) => `${key} ${type}`).join(', ');
  return `func ${fn.name}(${params}) ${fn.errors ? `(${fn.result}, error)` : fn.result}`;
}

/** A Go literal of `type` (JSON strings are Go string literals). */
export function goValue(value: unknown, type: GoType): string {
  if (type === 'int' || type === 'int64') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a Go ${type}: ${JSON.stringify(value)}`);
    return String(value);
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new Error(`not a Go bool: ${JSON.stringify(value)}`);
    return String(value);
  }
  if (type === 'string') {
    if (typeof value !== 'string') throw new Error(`not a Go string: ${JSON.stringify(value)}`);
    return JSON.stringify(value);
  }
  if (type === 'map[string]int') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`not a Go map: ${JSON.stringify(value)}`);
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${goValue(v, 'int')}`);
    return `map[string]int{${entries.join(', ')}}`;
  }
  if (!Array.isArray(value)) throw new Error(`not a Go slice: ${JSON.stringify(value)}`);
  const element = type.slice(2) as GoType;
  return `${type}{${value.map((v) => goValue(v, element)).join(', ')}}`;
}

const errorOf = (expected: unknown): string | undefined =>
  expected &&
  typeof expected === 'object' &&
  !Array.isArray(expected) &&
  typeof (expected as { error?: unknown }).error === 'string'
    ? (expected as { error: string }).error
    : undefined;

const comparable = (type: GoType): boolean => !type.startsWith('[]') && !type.startsWith('map[');

/** The struct's field declarations, types in one column as gofmt aligns them. */
function fields(list: Array<[string, string]>): string[] {
  const width = Math.max(...list.map(([name]) => name.length));
  return list.map(([name, type]) => `\t\t${name.padEnd(width)} ${type}`);
}

/** One table test: a row per case of `fn`'s property. */
function tableTest(fn: GoFunction, cases: GoCase[], name: (c: GoCase) => string): string {
  const columns: Array<[string, string]> = [
    ['name', 'string'],
    ...fn.params,
    ['want', fn.result],
    ...(fn.errors ? [['wantErr', 'string'] as [string, string]] : []),
  ];
  const rows = cases.map((c) => {
    const cells = [`name: ${JSON.stringify(name(c))}`];
    for (const [key, type] of fn.params) {
      if (!(key in c.input)) throw new Error(`case ${c.uuid} has no input '${key}'`);
      cells.push(`${key}: ${goValue(c.input[key], type)}`);
    }
    const error = errorOf(c.expected);
    if (error !== undefined) {
      if (!fn.errors) throw new Error(`case ${c.uuid} expects an error, but ${fn.name} returns none`);
      cells.push(`wantErr: ${JSON.stringify(error)}`);
    } else cells.push(`want: ${goValue(c.expected, fn.result)}`);
    return `\t\t{${cells.join(', ')}},`;
  });
  const args = fn.params.map(([key]) => `tc.${key}`).join(', ');
  const verbs = fn.params.map(() => '%#v').join(', ');
  const differs = comparable(fn.result)
    ? 'got != tc.want'
    : '!reflect.DeepEqual(got, tc.want) && (len(got) != 0 || len(tc.want) != 0)';
  const check = fn.errors
    ? [
        `\t\t\tgot, err := ${fn.name}(${args})`,
        '\t\t\tif tc.wantErr != "" {',
        '\t\t\t\tif err == nil || err.Error() != tc.wantErr {',
        `\t\t\t\t\tt.Fatalf("${fn.name}(${verbs}) = %#v, %v; want the error %q", ${args}, got, err, tc.wantErr)`,
        '\t\t\t\t}',
        '\t\t\t\treturn',
        '\t\t\t}',
        `\t\t\tif err != nil || ${differs} {`,
        `\t\t\t\tt.Fatalf("${fn.name}(${verbs}) = %#v, %v; want %#v", ${args}, got, err, tc.want)`,
        '\t\t\t}',
      ]
    : [
        `\t\t\tgot := ${fn.name}(${args})`,
        `\t\t\tif ${differs} {`,
        `\t\t\t\tt.Fatalf("${fn.name}(${verbs}) = %#v; want %#v", ${args}, got, tc.want)`,
        '\t\t\t}',
      ];
  return [
    `func TestAcceptance${fn.name}(t *testing.T) {`,
    '\ttests := []struct {',
    ...fields(columns),
    '\t}{',
    ...rows,
    '\t}',
    '\tfor _, tc := range tests {',
    '\t\tt.Run(tc.name, func(t *testing.T) {',
    ...check,
    '\t\t})',
    '\t}',
    '}',
  ].join('\n');
}

/**
 * The Go acceptance test file: `header` (comment lines), the package clause, the imports it uses, and a table test per
 * function in the order the cases first use it.
 */
export function goTests(go: GoInterface, header: string, cases: GoCase[], name: (c: GoCase) => string): string {
  const properties = [...new Set(cases.map((c) => c.property))];
  const tests = properties.map((property) => {
    const fn = go.functions[property];
    if (!fn) throw new Error(`no Go function for the property '${property}'`);
    return {
      fn,
      text: tableTest(
        fn,
        cases.filter((c) => c.property === property),
        name,
      ),
    };
  });
  const imports = [...(tests.some((t) => !comparable(t.fn.result)) ? ['reflect'] : []), 'testing'];
  return [
    header,
    `package ${go.package}`,
    '',
    imports.length === 1 ? `import "${imports[0]}"` : `import (\n${imports.map((i) => `\t"${i}"`).join('\n')}\n)`,
    '',
    tests.map((t) => t.text).join('\n\n'),
    '',
  ].join('\n');
}
