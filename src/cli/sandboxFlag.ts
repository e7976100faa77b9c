import { isSandboxMode, SANDBOX_MODES, type SandboxMode } from '../core';
import { UsageError } from './cliIo';

/** What each sandbox mode means on the command line (a mode added to the core's list must be said here too). */
const MODE_HELP: Readonly<Record<SandboxMode, string>> = {
  auto: 'default: refuse to run without an OS sandbox',
  off: 'run generated code unconfined on this machine: only if you accept that',
};

/** `--sandbox MODE`'s line in a command's help, each of the core's modes with what it means. */
export const SANDBOX_USAGE = `  --sandbox MODE         ${SANDBOX_MODES.map((mode) => `${mode} (${MODE_HELP[mode]})`).join(`\n${' '.repeat(25)}| `)}`;

/** The `--sandbox` flag's mode (`auto` when it is not given); any other word is a usage error naming the modes. */
export function sandboxFlag(value: string | undefined): SandboxMode {
  const mode = value ?? 'auto';
  if (!isSandboxMode(mode)) throw new UsageError(`--sandbox takes ${SANDBOX_MODES.join(' or ')}, got '${mode}'.`);
  return mode;
}

/** The flag that turns the sandbox off, for messages that name it as the way out. */
export const SANDBOX_OFF_FLAG = `--sandbox=${'off' satisfies SandboxMode}`;
