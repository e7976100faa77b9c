import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '../../../src/core/errors/agentError';
import {
  NAMED_FILE_MAX_BYTES,
  NamedFileError,
  readNamedFile,
  readNamedText,
  readNamedTextSync,
  type NamedFileProblem,
} from '../../../src/core/namedFiles/readNamedFile';
import { listenOnSocket, makeFifo, releaseFifo } from '../../support/specialFiles';

/** The NamedFileError `read` fails with; fails the test when it reads something. */
async function refusal(read: () => unknown): Promise<NamedFileError> {
  try {
    await read();
  } catch (error) {
    assert.ok(error instanceof NamedFileError, `a NamedFileError, got ${String(error)}`);
    return error;
  }
  assert.fail('the file was read');
}

function assertRefused(error: NamedFileError, path: string, problem: NamedFileProblem, reason: RegExp): void {
  assert.ok(error instanceof AgentError);
  assert.equal(error.error_code, 'CONFIG');
  assert.equal(error.problem, problem);
  assert.equal(error.path, path);
  assert.equal(error.details.path, path);
  assert.match(error.reason, reason);
  assert.equal(error.message, `${path} ${error.reason}.`);
}

// Paths a person or a file names (--prices, a kata, tdd-agent.json, an agent config, an eval set, a cassette) are
// read as bounded regular files: anything else is refused at once, naming the path and what it is.
describe('readNamedFile: a path a person or a file names is read as a bounded regular file', function () {
  this.timeout(20_000); // a reader blocked on the FIFO fails here, by the test's timeout
  let dir: string;
  let fifo: string;
  let socketServer: Server | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'named-file-'));
    fifo = makeFifo(join(dir, 'prices.json'));
  });
  afterEach(async () => {
    await releaseFifo(fifo);
    await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
    socketServer = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a regular file, and a link to one (a person may name a link)', async () => {
    const file = join(dir, 'kata.md');
    await writeFile(file, '# Kata\n');
    await symlink(file, join(dir, 'link.md'));
    assert.equal(await readNamedText(file), '# Kata\n');
    assert.deepEqual(await readNamedFile(join(dir, 'link.md')), Buffer.from('# Kata\n'));
    assert.equal(readNamedTextSync(join(dir, 'link.md')), '# Kata\n');
    await writeFile(join(dir, 'empty.json'), '');
    assert.equal(await readNamedText(join(dir, 'empty.json')), '');
  });

  it('refuses a FIFO at once, with no writer on it, naming the path (async and sync)', async () => {
    assertRefused(await refusal(() => readNamedText(fifo)), fifo, 'fifo', /^is a FIFO \(named pipe\), not a file$/);
    assertRefused(await refusal(() => readNamedTextSync(fifo)), fifo, 'fifo', /^is a FIFO/);
    await symlink(fifo, join(dir, 'link.json'));
    assertRefused(await refusal(() => readNamedFile(join(dir, 'link.json'))), join(dir, 'link.json'), 'fifo', /FIFO/);
  });

  it('refuses a device: /dev/null and /dev/zero (which never ends)', async () => {
    for (const device of ['/dev/null', '/dev/zero']) {
      assertRefused(await refusal(() => readNamedFile(device)), device, 'device', /^is a device, not a file$/);
      assertRefused(await refusal(() => readNamedTextSync(device)), device, 'device', /device/);
    }
  });

  it('refuses a folder', async () => {
    const folder = join(dir, 'agents');
    await mkdir(folder);
    assertRefused(await refusal(() => readNamedText(folder)), folder, 'directory', /^is a folder, not a file$/);
    assertRefused(await refusal(() => readNamedTextSync(folder)), folder, 'directory', /folder/);
  });

  it('refuses a socket (which cannot even be opened)', async () => {
    const socket = join(dir, 'mcp.sock');
    socketServer = await listenOnSocket(socket);
    assertRefused(await refusal(() => readNamedText(socket)), socket, 'socket', /^is a socket, not a file$/);
    assertRefused(await refusal(() => readNamedTextSync(socket)), socket, 'socket', /socket/);
  });

  it('refuses a file over the bound with its size, and a sparse file claiming 2.5 GB without reading it', async () => {
    const big = join(dir, 'big.json');
    await writeFile(big, 'x'.repeat(2000));
    const error = await refusal(() => readNamedText(big, { maxBytes: 1024 }));
    assertRefused(error, big, 'too_large', /^is too large: 2000 bytes, over the limit of 1024$/);
    assert.equal(error.details.size, 2000);
    assert.equal(error.details.maxBytes, 1024);
    assertRefused(await refusal(() => readNamedTextSync(big, { maxBytes: 1024 })), big, 'too_large', /2000 bytes/);
    assert.equal((await readNamedText(big, { maxBytes: 2000 })).length, 2000, 'exactly the bound is read');

    const sparse = join(dir, 'sparse.json');
    await writeFile(sparse, '');
    await truncate(sparse, 2.5 * 1024 ** 3);
    const claimed = await refusal(() => readNamedFile(sparse));
    assertRefused(
      claimed,
      sparse,
      'too_large',
      new RegExp(`${2.5 * 1024 ** 3} bytes, over the limit of ${NAMED_FILE_MAX_BYTES}`),
    );
  });

  it('says a missing path does not exist, and keeps the system’s reason for the rest', async () => {
    const missing = join(dir, 'missing.json');
    assertRefused(await refusal(() => readNamedText(missing)), missing, 'missing', /^does not exist$/);
    assertRefused(await refusal(() => readNamedTextSync(missing)), missing, 'missing', /^does not exist$/);
    const below = join(dir, 'kata.md');
    await writeFile(below, '');
    assertRefused(await refusal(() => readNamedText(join(below, 'x'))), join(below, 'x'), 'missing', /does not exist/);
    await symlink('loop', join(dir, 'loop'));
    const loop = await refusal(() => readNamedText(join(dir, 'loop')));
    assertRefused(loop, join(dir, 'loop'), 'unreadable', /^cannot be read \(ELOOP\)$/);
  });
});
