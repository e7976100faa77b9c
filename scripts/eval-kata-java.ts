/**
 * The Java part of the eval kata set: an exercise's Java interface (a final class in package `kata` with static
 * methods) and the JUnit 5 acceptance class made from its canonical cases. scripts/generate-eval-katas.ts calls it as
 * the `java` row of its emitters.
 *
 * The file is `<Class>AcceptanceTest.java` in package `kata`, beside the code's own package, so it calls the class
 * directly. Each canonical case is a `@Test` method of its own: Surefire's TEST-*.xml names a test by its method (a
 * `@ParameterizedTest` case would be `method(args)[index]`, a number and not the case; `@DisplayName` is not written
 * there), so the method's name carries the identity: the case's words in camel case, then `_` and the first 8 hex
 * digits of its UUID. Its `@DisplayName` is the case's description ending with `[<case uuid>]`, as in the other
 * languages. A method that can fail throws `IllegalArgumentException` whose message is exactly the canonical text.
 */

/** The Java types the set's methods take and return. */
export type JavaType =
  'int' | 'long' | 'boolean' | 'String' | 'List<Integer>' | 'List<Long>' | 'List<String>' | 'Map<String, Integer>';

/** One static method: its name (`isLeapYear`), parameters (canonical input key, Java name, type) and return type. */
export interface JavaMethod {
  name: string;
  params: Array<[key: string, name: string, type: JavaType]>;
  result: JavaType;
  /** It throws `IllegalArgumentException`: the exercise has cases that expect an error. */
  errors?: boolean;
}

/** An exercise in Java: its class (src/main/java/kata/<Class>.java) and a static method per canonical property. */
export interface JavaInterface {
  class: string;
  methods: Record<string, JavaMethod>;
}

/** What the Java emitter reads of a canonical case (nested group descriptions and its own in `path`). */
export interface JavaCase {
  uuid: string;
  property: string;
  input: Record<string, unknown>;
  expected: unknown;
  path: string[];
}

/** The package of the kata's code and of the acceptance class. */
export const JAVA_PACKAGE = 'kata';

/** `public static boolean isLeapYear(int year)`, as the kata's interface section states it. */
export function javaSignature(method: JavaMethod): string {
  const params = method.params.map(([, name, type]) => `${type} ${name}`).join(', ');
  return `public static ${method.result} ${method.name}(${params})`;
}

/** A Java string literal: JSON's escapes, every character outside ASCII as `\uXXXX`. */
function javaString(value: string): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const INT_MAX = 2 ** 31 - 1;

/** A Java expression of `type` for a canonical value (`List.of(2L, 3L)`, `Map.ofEntries(Map.entry("a", 1))`). */
export function javaValue(value: unknown, type: JavaType): string {
  if (type === 'int' || type === 'long') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a Java ${type}: ${JSON.stringify(value)}`);
    const n = value as number;
    if (type === 'int' && Math.abs(n) > INT_MAX) throw new Error(`not a Java int: ${n}`);
    return type === 'long' ? `${n}L` : String(n);
  }
  if (type === 'boolean') {
    if (typeof value !== 'boolean') throw new Error(`not a Java boolean: ${JSON.stringify(value)}`);
    return String(value);
  }
  if (type === 'String') {
    if (typeof value !== 'string') throw new Error(`not a Java String: ${JSON.stringify(value)}`);
    return javaString(value);
  }
  if (type === 'Map<String, Integer>') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`not a Java map: ${JSON.stringify(value)}`);
    const entries = Object.entries(value).map(([k, v]) => `Map.entry(${javaString(k)}, ${javaValue(v, 'int')})`);
    return `Map.ofEntries(${entries.join(', ')})`;
  }
  if (!Array.isArray(value)) throw new Error(`not a Java list: ${JSON.stringify(value)}`);
  const element = ({ 'List<Integer>': 'int', 'List<Long>': 'long', 'List<String>': 'String' } as const)[type];
  return `List.of(${value.map((v) => javaValue(v, element)).join(', ')})`;
}

const errorOf = (expected: unknown): string | undefined =>
  expected &&
  typeof expected === 'object' &&
  !Array.isArray(expected) &&
  typeof (expected as { error?: unknown }).error === 'string'
    ? (expected as { error: string }).error
    : undefined;

/** The method name of a case: its words in camel case (ASCII letters and digits), `_`, its UUID's first 8 digits. */
export function javaTestName(c: Pick<JavaCase, 'uuid' | 'path'>): string {
  const words = c.path
    .join(' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
  const base = /^[a-z]/.test(camel) ? camel : `case${camel[0]?.toUpperCase() ?? ''}${camel.slice(1)}`;
  return `${base}_${c.uuid.slice(0, 8)}`;
}

/** One case's test method: a call of the class's static method, and what it must return or throw. */
function testMethod(java: JavaInterface, c: JavaCase, displayName: string): { text: string; uses: string[] } {
  const method = java.methods[c.property];
  if (!method) throw new Error(`no Java method for the property '${c.property}'`);
  const args = method.params.map(([key, , type]) => {
    if (!(key in c.input)) throw new Error(`case ${c.uuid} has no input '${key}'`);
    return javaValue(c.input[key], type);
  });
  const call = `${java.class}.${method.name}(${args.join(', ')})`;
  const error = errorOf(c.expected);
  let body: string[];
  let uses: string[];
  if (error !== undefined) {
    if (!method.errors) throw new Error(`case ${c.uuid} expects an error, but ${method.name} throws none`);
    body = [
      `        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ${call});`,
      `        assertEquals(${javaString(error)}, error.getMessage());`,
    ];
    uses = ['assertThrows', 'assertEquals'];
  } else if (method.result === 'boolean') {
    const assertion = c.expected === true ? 'assertTrue' : c.expected === false ? 'assertFalse' : undefined;
    if (!assertion) throw new Error(`case ${c.uuid}: not a Java boolean: ${JSON.stringify(c.expected)}`);
    body = [`        ${assertion}(${call});`];
    uses = [assertion];
  } else {
    body = [`        assertEquals(${javaValue(c.expected, method.result)}, ${call});`];
    uses = ['assertEquals'];
  }
  const text = [
    '    @Test',
    `    @DisplayName(${javaString(displayName)})`,
    `    void ${javaTestName(c)}() {`,
    ...body,
    '    }',
  ].join('\n');
  return {
    text,
    uses: [...uses, ...(/\bList\.of\(/.test(text) ? ['List'] : []), ...(/\bMap\.ofEntries\(/.test(text) ? ['Map'] : [])],
  };
}

/**
 * The JUnit 5 acceptance class: `header` (comment lines), the package, the imports it uses, and a `@Test` method per
 * case in the data's order. `displayName` is the case's name as the other languages give it.
 */
export function javaTests(java: JavaInterface, header: string, cases: JavaCase[], displayName: (c: JavaCase) => string): string {
  const taken = new Map<string, string>();
  for (const c of cases) {
    const name = javaTestName(c);
    if (taken.has(name)) throw new Error(`cases ${taken.get(name)} and ${c.uuid} get the same Java test name ${name}`);
    taken.set(name, c.uuid);
  }
  const methods = cases.map((c) => testMethod(java, c, displayName(c)));
  const uses = new Set(methods.flatMap((m) => m.uses));
  const imports = [
    ...(uses.has('List') ? ['import java.util.List;'] : []),
    ...(uses.has('Map') ? ['import java.util.Map;'] : []),
    'import org.junit.jupiter.api.DisplayName;',
    'import org.junit.jupiter.api.Test;',
    '',
    ...['assertEquals', 'assertFalse', 'assertThrows', 'assertTrue']
      .filter((name) => uses.has(name))
      .map((name) => `import static org.junit.jupiter.api.Assertions.${name};`),
  ];
  return [
    header,
    '// In Java a case is a @Test method named after the case, ending with the first 8 hex digits of its UUID',
    "// (Surefire's TEST-*.xml names a test by its method); its @DisplayName ends with the whole UUID.",
    '',
    `package ${JAVA_PACKAGE};`,
    '',
    ...imports,
    '',
    `final class ${java.class}AcceptanceTest {`,
    methods.map((m) => m.text).join('\n\n'),
    '}',
    '',
  ].join('\n');
}
