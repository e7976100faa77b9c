import { runCli } from './runCli';

// The bin entry: real streams, Ctrl-C aborts the session (which rolls back to the last green commit);
// a second Ctrl-C exits at once.
const controller = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  process.stderr.write('\nStopping after the current step (Ctrl-C again to quit now)...\n');
  controller.abort();
});

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, signal: controller.signal }).then(
  (code) => {
    process.exitCode = code;
    // stdin may hold the event loop open (approval prompts); nothing is pending once runCli returned.
    process.stdin.unref?.();
    if (!process.stdin.isTTY) process.stdin.destroy();
  },
);
