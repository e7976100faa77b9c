import { join } from 'node:path';
import { AgentError } from '../errors/agentError';
import { NamedFileError, readNamedText } from '../namedFiles/readNamedFile';
import type { EvalReport } from './report';

/** The most a report.json may hold: about 20,000 runs. */
const REPORT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The report in `dir` (`<dir>/report.json`; `dir` may name the file itself), read as every named file is. A missing
 * file (with `missingOk`: undefined), one that is not a regular file or is too large, bad JSON or a file that is not an
 * eval report is an AgentError (`CONFIG`) in one line naming the file.
 */
export async function readEvalReport(dir: string, options: { missingOk?: boolean } = {}): Promise<EvalReport | undefined> {
  const file = dir.endsWith('.json') ? dir : join(dir, 'report.json');
  let text: string;
  try {
    text = await readNamedText(file, { maxBytes: REPORT_MAX_BYTES });
  } catch (err) {
    if (err instanceof NamedFileError && err.problem === 'missing' && options.missingOk) return undefined;
    const reason = err instanceof NamedFileError ? err.reason : (err as Error).message;
    throw new AgentError('CONFIG', `Cannot read the eval report ${file}: ${reason}.`, { file }, { cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new AgentError('CONFIG', `${file} is not valid JSON: ${(err as Error).message}.`, { file }, { cause: err });
  }
  const report = raw as Partial<EvalReport> | null;
  if (
    !report ||
    typeof report !== 'object' ||
    report.format !== 'tdd-agent-eval' ||
    !Array.isArray(report.runs) ||
    !report.set ||
    !Array.isArray(report.set.katas)
  )
    throw new AgentError('CONFIG', `${file} is not a tdd-agent eval report (report.json of tdd-agent eval).`, { file });
  return report as EvalReport;
}
