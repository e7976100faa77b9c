/**
 * The titles of the tests a test file declares, in order, read from its source: `it('…')` / `test('…')` (with
 * `.only`/`.skip`/`.each` variants) in JavaScript and TypeScript, `def test_…` in Python. A cheap reading for naming a
 * new test when the runner could not say which test is new (a test file whose module does not exist yet does not
 * load, so no test in it is reported).
 */
export function testTitlesIn(path: string, source: string): string[] {
  if (path.endsWith('.py')) return [...source.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(test_\w+)/gm)].map((m) => m[1]!);
  return [...source.matchAll(/\b(?:it|test)(?:\.(?:only|skip|todo|concurrent))?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map(
    (m) => m[2]!.replace(/\\(['"`\\])/g, '$1'),
  );
}
