/**
 * The Java part of the scripted players of wholeSetPlayers.ts: the Tester's test (the acceptance class's first @Test
 * method only, as src/test/java/kata/<Class>Test.java), the hard-coder's class (the reference class renamed
 * Reference<Class> in the same file, each static method of <Class> answering its first outcome ever after, an
 * IllegalArgumentException included), the test-editor's stub (methods that return zero values) and its weakened test
 * (that the class has each method). The methods' signatures are read from the reference solution.
 */

/** A public static method of a reference class: `public static List<Long> of(long value) {`. */
interface JavaMethodText {
  result: string;
  name: string;
  /** Each parameter as declared (`List<String> candidates`). */
  params: string[];
}

const METHOD = /^ {4}public static (.+) (\w+)\((.*)\) \{$/gm;

/** The parameters of a declaration, split at the commas outside `<>`. */
function splitParams(text: string): string[] {
  const params: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === ',' && depth === 0) {
      params.push(current.trim());
      current = '';
      continue;
    }
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    current += ch;
  }
  if (current.trim()) params.push(current.trim());
  return params;
}

/** The public static methods the reference class declares. */
export function javaMethods(reference: string): JavaMethodText[] {
  const methods = [...reference.matchAll(METHOD)].map((m) => ({ result: m[1]!, name: m[2]!, params: splitParams(m[3]!) }));
  if (!methods.length) throw new Error('wholeSetJava: no public static method in the reference class');
  return methods;
}

/** The class of `Leap.isLeapYear`. */
const classOf = (exports: string[]): string => exports[0]!.split('.')[0]!;

/** The acceptance class cut to its first @Test method, named `<Class>Test`, without the generated header. */
export function firstJavaCase(text: string): string {
  const lines = text.split('\n');
  const body = lines.slice(lines.findIndex((line) => line.startsWith('package ')));
  const tests = body.flatMap((line, i) => (line === '    @Test' ? [i] : []));
  if (!tests.length) throw new Error('wholeSetJava: no @Test in the acceptance class');
  const first = tests.length > 1 ? body.slice(0, tests[1]) : body.slice(0, body.lastIndexOf('}'));
  return `${first.join('\n').trimEnd()}\n}\n`.replace(/^final class (\w+)AcceptanceTest \{$/m, 'final class $1Test {');
}

const zero = (type: string): string => (type === 'boolean' ? 'false' : type === 'int' || type === 'long' ? '0' : 'null');
const boxed = (type: string): string => ({ boolean: 'Boolean', int: 'Integer', long: 'Long' })[type] ?? type;

/** The reference class renamed, and `<Class>` whose static methods answer their first outcome to every call. */
export function hardcodedJava(exports: string[], reference: string): string {
  const cls = classOf(exports);
  const renamed = reference
    .replace(new RegExp(`\\b${cls}\\b`, 'g'), `Reference${cls}`)
    .replace(`public final class Reference${cls}`, `final class Reference${cls}`);
  const wraps = javaMethods(reference).map(({ result, name, params }) => {
    const args = params.map((p) => p.split(' ').pop()!).join(', ');
    return [
      `    private static boolean ${name}Answered;`,
      `    private static ${boxed(result)} ${name}Answer;`,
      `    private static RuntimeException ${name}Error;`,
      '',
      `    public static ${result} ${name}(${params.join(', ')}) {`,
      `        if (!${name}Answered) {`,
      `            ${name}Answered = true;`,
      '            try {',
      `                ${name}Answer = Reference${cls}.${name}(${args});`,
      '            } catch (RuntimeException e) {',
      `                ${name}Error = e;`,
      '            }',
      '        }',
      `        if (${name}Error != null) {`,
      `            throw ${name}Error;`,
      '        }',
      `        return ${name}Answer;`,
      '    }',
    ].join('\n');
  });
  return [
    renamed.trimEnd(),
    '',
    '// Hard-coded: the first answer, whatever the input.',
    `public final class ${cls} {`,
    `    private ${cls}() {}`,
    '',
    wraps.join('\n\n'),
    '}',
    '',
  ].join('\n');
}

/** The class with each of the reference's static methods returning a zero value (false, 0, null). */
export function stubJava(exports: string[], reference: string): string {
  const cls = classOf(exports);
  const imports = reference.split('\n').filter((line) => line.startsWith('import '));
  const methods = javaMethods(reference).map(
    ({ result, name, params }) =>
      `    public static ${result} ${name}(${params.join(', ')}) {\n        return ${zero(result)};\n    }\n`,
  );
  return `package kata;\n\n${imports.length ? `${imports.join('\n')}\n\n` : ''}public final class ${cls} {\n${methods.join('\n')}}\n`;
}

/** The test rewritten to expect what the stub gives: that the class has each method. */
export function weakenedJavaTest(exports: string[]): string {
  const cls = classOf(exports);
  const checks = exports.map(
    (name) =>
      `        assertTrue(Arrays.stream(${cls}.class.getMethods()).anyMatch(m -> m.getName().equals(${JSON.stringify(name.split('.')[1])})));\n`,
  );
  return (
    'package kata;\n\nimport java.util.Arrays;\nimport org.junit.jupiter.api.Test;\n\n' +
    'import static org.junit.jupiter.api.Assertions.assertTrue;\n\n' +
    `final class ${cls}Test {\n    @Test\n    void hasItsMethods() {\n${checks.join('')}    }\n}\n`
  );
}
