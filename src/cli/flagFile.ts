import { NAMED_FILE_MAX_BYTES, NamedFileError, readNamedText } from '../core';
import { UsageError } from './cliIo';

/**
 * The text of the file a flag names (`--prices FILE`), read as every named file is (`readNamedFile.ts`): a missing
 * file, a FIFO, a device, a socket, a folder or a file over `maxBytes` is a {@link UsageError} (exit 2, at once) that
 * names the flag and the path: `--prices p.json is a FIFO (named pipe), not a file.`
 */
export async function readFlagFile(flag: string, file: string, maxBytes = NAMED_FILE_MAX_BYTES): Promise<string> {
  try {
    return await readNamedText(file, { maxBytes });
  } catch (err) {
    if (err instanceof NamedFileError) throw new UsageError(`${flag} ${file} ${err.reason}.`);
    throw err;
  }
}
