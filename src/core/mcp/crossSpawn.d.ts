/**
 * Types of `cross-spawn`, the spawn the MCP SDK's own stdio transport uses (a dependency of
 * `@modelcontextprotocol/sdk`, and declared in our package.json because the core imports it): like
 * `child_process.spawn`, but it also starts `npx`, `.cmd` and `.bat` commands on Windows without a shell.
 */
declare module 'cross-spawn' {
  import type { ChildProcess, SpawnOptions } from 'node:child_process';

  /** Same contract as `child_process.spawn(command, args, options)`. */
  function spawn(command: string, args?: readonly string[], options?: SpawnOptions): ChildProcess;
  export default spawn;
}
