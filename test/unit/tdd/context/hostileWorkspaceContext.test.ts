import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRoleContext } from '../../../../src/core/tdd/roles/roleContext';
import { MAX_CONTEXT_FILE_BYTES, readTextFile } from '../../../../src/core/tdd/context/workspaceSnapshot';

const SECRET = 'tdd-context-outside-secret-41c9';
const SOURCE = 'export function fizzbuzz(n) {\n  return String(n);\n}\n';
const HUGE = 2.5 * 1024 ** 3; // over 2 GiB, Node's limit for reading a file whole

/** Rejects when `promise` takes longer than `ms` (opening a FIFO for reading blocks until a writer comes). */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Generated code writes the workspace: the context builder reads it without following links, opening special
// files or reading more than it can show.
describe('role context in a hostile workspace', function () {
  this.timeout(20_000);
  let root = '';
  let outside = '';
  let fifo = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'hostile-context-'));
    outside = await mkdtemp(join(tmpdir(), 'hostile-context-outside-'));
    await mkdir(join(root, 'src'));
    await mkdir(join(root, 'test'));
    await writeFile(join(root, 'src/fizzbuzz.js'), SOURCE);
    await writeFile(join(root, 'src/huge.js'), '');
    await truncate(join(root, 'src/huge.js'), HUGE); // sparse: claims 2.5 GB, takes no disk
    await writeFile(join(outside, 'secret.txt'), `${SECRET}\n`);
    await symlink(join(outside, 'secret.txt'), join(root, 'src/secret.js'));
    await symlink(outside, join(root, 'test/linked'));
    fifo = join(root, 'src/pipe.js');
    execFileSync('mkfifo', [fifo]);
  });
  afterEach(async () => {
    // A reader stuck on the FIFO is let go by a writer that opens and closes it.
    const handle = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
    await handle?.close();
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('names a 2.5 GB sparse file with its size instead of reading it, and never shows what a link points to', async () => {
    const context = await within(
      10_000,
      buildRoleContext({
        role: 'implementer',
        kataTitle: 'FizzBuzz',
        kataDescription: 'Write fizzbuzz.',
        language: 'javascript',
        sourceDir: 'src',
        testDir: 'test',
        testCommand: 'node --test',
        workspaceRoot: root,
        cycle: 1,
        maxCycles: 3,
        attempt: 1,
        maxAttempts: 3,
        recentCommits: [],
        focusFiles: ['src/fizzbuzz.js', 'src/huge.js', 'src/secret.js', 'src/pipe.js', 'test/linked/secret.txt'],
      }),
    );
    assert.ok(context.includes(`- src/huge.js (${HUGE} bytes, too large to show`), context);
    assert.ok(context.includes(SOURCE), 'the ordinary file is shown');
    assert.ok(!context.includes(SECRET), 'nothing read through a link');
  });

  it('reads a link, a FIFO or an oversized file as no text, without blocking', async () => {
    assert.deepEqual(await within(5_000, readTextFile(root, 'src/secret.js')), { kind: 'not_a_file' });
    assert.deepEqual(await within(5_000, readTextFile(root, 'test/linked/secret.txt')), { kind: 'not_a_file' });
    assert.deepEqual(await within(5_000, readTextFile(root, 'src/pipe.js')), { kind: 'not_a_file' });
    assert.deepEqual(await within(5_000, readTextFile(root, 'src/huge.js')), { kind: 'too_large', size: HUGE });
    assert.deepEqual(await readTextFile(root, 'src/fizzbuzz.js'), { kind: 'text', text: SOURCE });
  });

  it('reads a file of exactly the limit, and names one a byte over it', async () => {
    await writeFile(join(root, 'src/at.js'), 'a'.repeat(MAX_CONTEXT_FILE_BYTES));
    await writeFile(join(root, 'src/over.js'), 'a'.repeat(MAX_CONTEXT_FILE_BYTES + 1));
    const at = await readTextFile(root, 'src/at.js');
    assert.equal(at.kind === 'text' && at.text.length, MAX_CONTEXT_FILE_BYTES);
    assert.deepEqual(await readTextFile(root, 'src/over.js'), { kind: 'too_large', size: MAX_CONTEXT_FILE_BYTES + 1 });
  });
});
