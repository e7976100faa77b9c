/**
 * Ruby: an RSpec example (`it 'says Fizz for three' do`, `specify`, `example`, `scenario`, with `do … end` or braces) or a
 * minitest test (`def test_fizz_for_three`, ActiveSupport's `test 'fizz' do`), from its line to the `end` (or `}`) at
 * its own indentation, as Ruby code is written.
 */
export const RUBY_TEST =
  /^([ \t]*)(?:(?:it|specify|example|scenario|test)[ \t]*\(?[ \t]*(['"])((?:\\.|(?!\2)[^\\\n])*)\2|def[ \t]+(test_\w+[?!]?))/gm;

/**
 * The titles of the tests a test file declares, in order, read from its source: `it('…')` / `test('…')` (with
 * `.only`/`.skip`/`.each` variants) in JavaScript and TypeScript, `def test_…` in Python, `function test…(` in PHP,
 * `#[test] fn …` in Rust. A cheap reading for naming a
 * new test when the runner could not say which test is new (a test file whose module does not exist yet does not
 * load, so no test in it is reported).
 */
export function testTitlesIn(path: string, source: string): string[] {
  if (path.endsWith('.rb')) return [...source.matchAll(RUBY_TEST)].map((m) => m[3] ?? m[4]!);
  if (path.endsWith('.php')) return [...source.matchAll(/\bfunction\s+(test\w*)\s*\(/g)].map((m) => m[1]!);
  if (path.endsWith('.rs'))
    return [...source.matchAll(/#\[test\]\s*(?:#\[[^\]]*\]\s*)*(?:pub\s+)?fn\s+(\w+)/g)].map((m) => m[1]!);
  if (path.endsWith('.py')) return [...source.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(test_\w+)/gm)].map((m) => m[1]!);
  return [...source.matchAll(/\b(?:it|test)(?:\.(?:only|skip|todo|concurrent))?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map(
    (m) => m[2]!.replace(/\\(['"`\\])/g, '$1'),
  );
}
