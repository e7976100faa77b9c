import { listBundledKatas } from '../../core/tddApi';
import { EXIT, type CliIo } from '../cliIo';

/** `tdd-agent katas`: the bundled katas, one per line (name, then title). */
export async function katasCommand(_argv: string[], io: CliIo): Promise<number> {
  for (const kata of listBundledKatas()) io.stdout.write(`${kata.slug.padEnd(20)} ${kata.title}\n`);
  return EXIT.ok;
}
