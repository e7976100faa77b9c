import type { LaunchEnd, SandboxLimits } from './types';

/** `bytes` for a person: `1 GiB`, `256 MiB`, `512 KiB`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** 128 + SIGXFSZ: how bubblewrap and shells report a command ended by the file-size limit. */
const FILE_SIZE_EXIT = 128 + 25;

const FILE_SIZE_TEXT = /File size limit exceeded|\bEFBIG\b|File too large/;
const FORK_TEXT =
  /Cannot fork|fork: (retry: )?Resource temporarily unavailable|spawn \S+ EAGAIN|\bEAGAIN\b.*\b(spawn|fork)|can't fork/i;
const SPACE_TEXT = /No space left on device|\bENOSPC\b/;
const MEMORY_TEXT = /Cannot allocate memory|\bENOMEM\b|std::bad_alloc|\bMemoryError\b|Fatal process out of memory/;

/**
 * Which limit of the sandbox a failed run ran into, worded for the person and the model reading the output
 * (`the sandbox's file-size limit (1 GiB per file)`), or undefined. `pidsLimitReached` comes from the launch's
 * cgroup (exact); without one, a fork error in the output is taken as the process limit. A run that exited 0
 * hit nothing worth saying.
 */
export function describeLimitHit(end: LaunchEnd, limits: SandboxLimits, pidsLimitReached: boolean): string | undefined {
  if (end.exitCode === 0 && end.signal === null) return undefined;
  const processes = `the sandbox's process limit (${limits.processes} processes and threads)`;
  if (pidsLimitReached) return processes;
  if (end.signal === 'SIGXFSZ' || end.exitCode === FILE_SIZE_EXIT || FILE_SIZE_TEXT.test(end.output))
    return `the sandbox's file-size limit (${formatBytes(limits.fileSizeBytes)} per file)`;
  if (FORK_TEXT.test(end.output)) return processes;
  if (SPACE_TEXT.test(end.output))
    return `the sandbox's /tmp size limit (${formatBytes(limits.tmpBytes)}), or a full disk: no space left on device`;
  if (MEMORY_TEXT.test(end.output)) return `the sandbox's memory limit (${formatBytes(limits.dataBytes)} of data per process)`;
  return undefined;
}
