import { runCli } from './runCli';

// The bin entry: real streams. Ctrl-C, SIGTERM and SIGHUP all stop the session after the current step
// (its worktree goes back to the last green commit; the person's checkout is never involved);
// a second signal exits at once.
const controller = new AbortController();
let interrupted = false;
const stop = (signal: NodeJS.Signals): void => {
  if (interrupted) process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
  interrupted = true;
  process.stderr.write(`\nStopping after the current step (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit now)...\n`);
  controller.abort();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));

void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
  // stdin may hold the event loop open (approval prompts); nothing is pending once runCli returned.
  process.stdin.unref?.();
  if (!process.stdin.isTTY) process.stdin.destroy();
});
