import { ChildProcess } from 'node:child_process';
import { sep } from 'node:path';

// Loaded by every mocha config (`require`): a test under test/unit/ that starts a child process fails, naming the
// command. A real process, session, runner or tsx start is what made a unit test take seconds (issue 37: the VS Code
// eval's test ran a whole eval); such a test belongs to test/integration/. Every asynchronous start (spawn, execFile,
// exec, fork, simple-git, cross-spawn) goes through ChildProcess.prototype.spawn. The synchronous ones are not
// counted: a unit test's setup makes a FIFO with `mkfifo` (Node has no call for it) or a repository with `git init`.

const UNIT_TESTS = `${sep}test${sep}unit${sep}`;

/** The commands started while a unit test ran. */
const started: string[] = [];
let inUnitTest = false;

/** Node's internal method every asynchronous start calls; not in @types/node. `args` begins with argv[0]. */
type Spawn = (this: ChildProcess, options: { file: string; args?: string[] }) => unknown;
const prototype = ChildProcess.prototype as unknown as { spawn: Spawn };
const spawn = prototype.spawn;
prototype.spawn = function (options) {
  if (inUnitTest) started.push([options.file, ...(options.args ?? []).slice(1)].join(' ').slice(0, 200));
  return spawn.call(this, options);
};

/** Root hooks: in a parallel run, around every test of every file its worker takes. */
export const mochaHooks = {
  beforeEach(this: Mocha.Context): void {
    started.length = 0;
    inUnitTest = this.currentTest?.file?.includes(UNIT_TESTS) ?? false;
  },
  afterEach(this: Mocha.Context): void {
    const commands = started.splice(0);
    const wasUnit = inUnitTest;
    inUnitTest = false;
    if (wasUnit && commands.length > 0)
      throw new Error(
        `"${this.currentTest?.fullTitle() ?? ''}" started ${commands.length} process(es) (${commands.join('; ')}): a unit test starts none; move it to test/integration/ (CONTRIBUTING, test tiers).`,
      );
  },
};
