import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledKatasDir } from '../../core/tddApi';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type CliIo } from '../cliIo';
import { kataCommand } from './kata';

/** `tdd-agent demo --help`. */
export const DEMO_USAGE = `Usage: tdd-agent demo [--workspace DIR] [--json] [--verbose]

Runs a complete FizzBuzz session from a recorded model conversation (no API key needed):
real files, real test runs (in the OS sandbox) and real commits on a session branch of a fresh temporary
git repository, whose path it prints.`;

/** The recorded FizzBuzz session shipped with the product. */
export const DEMO_CASSETTE = 'cassettes/fizzbuzz-javascript.json';

/** `tdd-agent demo`: the FizzBuzz kata replayed from the bundled cassette in a new temp workspace. */
export async function demoCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    workspace: { type: 'string' },
    json: { type: 'boolean', default: false },
    verbose: { type: 'boolean', short: 'v', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(`${DEMO_USAGE}\n`);
    return EXIT.ok;
  }
  const katas = bundledKatasDir();
  const cassette = katas ? join(katas, DEMO_CASSETTE) : undefined;
  if (!cassette || !existsSync(cassette))
    throw new UsageError(
      `The demo cassette is missing from this installation (katas/${DEMO_CASSETTE}); reinstall tdd-agent, or in a clone re-record it with npx tsx scripts/record-demo-cassette.ts.`,
    );
  const workspace = values.workspace ?? (await mkdtemp(join(tmpdir(), 'tdd-agent-demo-')));
  io.stderr.write(`Demo workspace: ${workspace}\n`);
  const args = [
    'fizzbuzz',
    '--language',
    'javascript',
    ...(values.json ? ['--json'] : []),
    ...(values.verbose ? ['--verbose'] : []),
  ];
  // Without --json the kata command ends with how to review the session's branch.
  return kataCommand(args, io, { cassette, workspace, yes: 'HIGH' });
}
