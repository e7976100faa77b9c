import { findBubblewrap, probeSandbox, processLimitMechanism } from '../../core';
import { EXIT, type CliIo } from '../cliIo';
import { SANDBOX_OFF_FLAG } from '../sandboxFlag';

/** `tdd-agent doctor`: which OS sandbox would confine the code the agents write, and why (not), with the fix. */
export async function doctorCommand(_argv: string[], io: CliIo): Promise<number> {
  const probe = await probeSandbox();
  if (probe.available) {
    io.stdout.write(`sandbox: ${probe.kind} — ${probe.reason}\n`);
    const bwrap = probe.kind === 'bubblewrap' ? findBubblewrap().path : undefined;
    if (bwrap) io.stdout.write(`process limit: ${processLimitMechanism(bwrap).text}\n`);
    io.stdout.write(
      'Test runs, quality gates and commands run with only the session worktree writable, no network, a private /tmp and HOME, and their own process namespace.\n',
    );
    return EXIT.ok;
  }
  io.stdout.write(`sandbox: none — ${probe.reason}\n`);
  if (probe.diagnosis) {
    io.stdout.write(`why: ${probe.diagnosis.cause}\n`);
    for (const fix of probe.diagnosis.fixes) io.stdout.write(`fix: ${fix.replace(/\n/g, '\n     ')}\n`);
  }
  io.stdout.write(
    `Sessions refuse to start until a sandbox works, unless you pass ${SANDBOX_OFF_FLAG} (code the agents write then runs unconfined as you).\n`,
  );
  return EXIT.failed;
}
