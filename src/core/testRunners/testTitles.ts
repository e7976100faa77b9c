/**
 * Ruby: an RSpec example (`it 'says Fizz for three' do`, `specify`, `example`, `scenario`, with `do … end` or braces) or a
 * minitest test (`def test_fizz_for_three`, ActiveSupport's `test 'fizz' do`), from its line to the `end` (or `}`) at
 * its own indentation, as Ruby code is written.
 */
export const RUBY_TEST =
  /^([ \t]*)(?:(?:it|specify|example|scenario|test)[ \t]*\(?[ \t]*(['"])((?:\\.|(?!\2)[^\\\n])*)\2|def[ \t]+(test_\w+[?!]?))/gm;

/** JUnit's test annotations (Jupiter's, and JUnit 4's `@Test`). */
const JAVA_TEST_ANNOTATION =
  /@(?:org\.junit\.(?:jupiter\.api\.)?)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/g;
/** What may stand between the annotation and the method's name: more annotations (their arguments skipped), modifiers and a type. */
const JAVA_METHOD_HEAD =
  /^(?:\s*@[\w.]+(?:\s*\((?:[^()"]|"(?:\\.|[^"\\])*"|\((?:[^()"]|"(?:\\.|[^"\\])*")*\))*\))?)*\s*(?:(?:public|protected|private|static|final|abstract|synchronized)\s+)*(?:<[^>]*>\s*)?[\w.$]+(?:<[^;{}()]*>)?(?:\[\])*\s+(\w+)\s*\(/;

/** A JUnit test class's test methods, in order: each annotated method's name and where its annotation starts. */
export function javaTestMethods(source: string): Array<{ name: string; index: number }> {
  const found: Array<{ name: string; index: number }> = [];
  for (const m of source.matchAll(JAVA_TEST_ANNOTATION)) {
    const head = JAVA_METHOD_HEAD.exec(source.slice(m.index + m[0].length, m.index + m[0].length + 2000));
    if (head) found.push({ name: head[1]!, index: m.index });
  }
  return found;
}

/**
 * The titles of the tests a test file declares, in order, read from its source: `it('…')` / `test('…')` (with
 * `.only`/`.skip`/`.each` variants) in JavaScript and TypeScript, `def test_…` in Python, `function test…(` in PHP,
 * `#[test] fn …` in Rust, a method annotated `@Test` (`@ParameterizedTest`, …) in Java. A cheap reading for naming a
 * new test when the runner could not say which test is new (a test file whose module does not exist yet does not
 * load, so no test in it is reported).
 */
export function testTitlesIn(path: string, source: string): string[] {
  if (path.endsWith('.rb')) return [...source.matchAll(RUBY_TEST)].map((m) => m[3] ?? m[4]!);
  if (path.endsWith('.java')) return javaTestMethods(source).map((m) => m.name);
  if (path.endsWith('.php')) return [...source.matchAll(/\bfunction\s+(test\w*)\s*\(/g)].map((m) => m[1]!);
  if (path.endsWith('.rs'))
    return [...source.matchAll(/#\[test\]\s*(?:#\[[^\]]*\]\s*)*(?:pub\s+)?fn\s+(\w+)/g)].map((m) => m[1]!);
  if (path.endsWith('.py')) return [...source.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(test_\w+)/gm)].map((m) => m[1]!);
  return [...source.matchAll(/\b(?:it|test)(?:\.(?:only|skip|todo|concurrent))?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map(
    (m) => m[2]!.replace(/\\(['"`\\])/g, '$1'),
  );
}
