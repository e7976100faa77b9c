/** Special files standing where a named file is expected: a FIFO with no writer, a listening Unix socket. */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';

/** Makes a FIFO at `path` (`mkfifo`): opening it for reading, without O_NONBLOCK, blocks until a writer comes. */
export function makeFifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

/** A writer that opens and closes the FIFO lets go of a reader stuck on it (were a reader ever to block). */
export async function releaseFifo(path: string): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
  await handle?.close();
}

/** A Unix socket listening at `path`; close the server when done. */
export async function listenOnSocket(path: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}
