import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module of the lint step, without type declarations
import { LONG, longFunctions } from '../../../scripts/functionLengths.mjs';

type Found = { file: string; line: number; name: string; lines: number };
const findLong = longFunctions as (patterns: string[], options: { cwd: string }) => Promise<Found[]>;

/** A function of `code` lines of code, with blank lines and comments between them that do not count. */
function functionOf(name: string, code: number): string {
  const body = Array.from({ length: code - 2 }, (_, i) => `  const v${i} = ${i};\n\n  // why v${i}\n`).join('');
  return `export function ${name}(): void {\n${body}}\n`;
}

describe('scripts/functionLengths: the functions of src/ and webview/ over LONG lines, counted as ESLint counts them', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'function-lengths-'));
    await writeFile(join(dir, 'a.ts'), functionOf('atTheLimit', LONG) + functionOf('overIt', LONG + 1));
    await writeFile(join(dir, 'b.ts'), `export const outer = (): number => {\n${functionOf('inner', LONG + 5)}  return 1;\n};\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('finds a function one line over, not one at the limit, blank lines and comments left out; a nested one apart', async () => {
    const found = await findLong(['*.ts'], { cwd: dir });
    assert.deepEqual(
      found.map((f) => [f.file, f.name, f.lines]),
      [
        ['b.ts', 'Arrow function', LONG + 8],
        ['b.ts', "Function 'inner'", LONG + 5],
        ['a.ts', "Function 'overIt'", LONG + 1],
      ],
    );
  });
});
