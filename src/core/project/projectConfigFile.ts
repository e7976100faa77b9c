import { z } from 'zod';
import { AgentError } from '../errors/agentError';
import { parseJsoncText } from '../json/jsonText';
import { NamedFileError, readNamedText } from '../namedFiles/readNamedFile';
import { MAX_PROJECT_FILE_BYTES } from './projectFiles';
import { type ProjectSettings } from './projectProfile';
import { LANGUAGES } from '../vocabulary';

/** The file at a repository's root that tells the agents about the project (committed with it). */
export const PROJECT_CONFIG_FILE = 'tdd-agent.json';

/** Why a workspace-relative folder or pattern is refused, or undefined when it is fine. */
export function relativePathProblem(value: string): string | undefined {
  const p = value.trim().replace(/\\/g, '/');
  if (!p) return 'must not be empty';
  if (p.startsWith('/') || /^[A-Za-z]:\//.test(p)) return 'must be relative to the repository root';
  if (p.split('/').includes('..')) return "must not contain '..'";
  if (/^(\.\/)*\.(git|tdd)(\/|$)/.test(p)) return 'must not point into .git or .tdd';
  return undefined;
}

/** `./src/` → `src`; the root is `.`. */
export function normalizeFolder(value: string): string {
  return (
    value
      .trim()
      .replace(/\\/g, '/')
      .replace(/^(\.\/)+(?=.)/, '')
      .replace(/\/+$/, '') || '.'
  );
}

const folder = z
  .string()
  .superRefine((value, ctx) => {
    const problem = relativePathProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(normalizeFolder);

const pattern = z
  .string()
  .max(300)
  .superRefine((value, ctx) => {
    const problem = relativePathProblem(value.replace(/^!/, ''));
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((p) => p.trim());

/** The schema of `tdd-agent.json`. Unknown keys are errors, to catch typos. */
export const ProjectConfigSchema = z
  .object({
    /** A JSON Schema reference editors use; ignored. */
    $schema: z.string().optional(),
    language: z.enum(LANGUAGES).optional(),
    testCommand: z.string().trim().min(1, 'must not be empty').max(500).optional(),
    testPatterns: z.array(pattern).min(1, 'must list at least one pattern').max(50).optional(),
    sourceDir: folder.optional(),
    testDir: folder.optional(),
  })
  .strict();

/** `tdd-agent.json` as written. */
export type ProjectConfig = z.infer<typeof ProjectConfigSchema>;

/**
 * Reads `tdd-agent.json` at `root`: undefined when there is none; one that is not a regular file (a FIFO, a folder, a
 * device), is over 1 MiB, is not JSON (comments allowed), has an unknown key or a bad value is a CONFIG AgentError
 * naming the file and what is wrong.
 */
export async function readProjectConfig(root: string): Promise<ProjectSettings | undefined> {
  const file = `${root.replace(/\/+$/, '')}/${PROJECT_CONFIG_FILE}`;
  let text: string;
  try {
    text = await readNamedText(file, { maxBytes: MAX_PROJECT_FILE_BYTES });
  } catch (error) {
    if (error instanceof NamedFileError && error.problem === 'missing') return undefined;
    if (!(error instanceof NamedFileError)) throw error;
    throw new AgentError(
      'CONFIG',
      `${file} ${error.reason}. Replace it with a JSON file or remove it.`,
      {
        file,
        problem: error.problem,
      },
      { cause: error },
    );
  }
  const json = parseJsoncText(text);
  if (!json.ok) {
    const { line, column, reason } = json.problem;
    throw new AgentError(
      'CONFIG',
      `${file} is not valid JSON (line ${line}, column ${column}): ${reason}. Fix it or remove it.`,
      {
        file,
        line,
        column,
      },
    );
  }
  const data = json.value;
  const parsed = ProjectConfigSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')} (known: ${Object.keys(ProjectConfigSchema.shape).join(', ')})`;
      const field = issue.path.map(String).join('.') || '(the whole file)';
      return `field '${field}': ${issue.message}`;
    });
    throw new AgentError('CONFIG', `${file}: ${problems.join('; ')}.`, { file, problems });
  }
  const { language, testCommand, testPatterns, sourceDir, testDir } = parsed.data;
  return {
    ...(language ? { language } : {}),
    ...(testCommand ? { testCommand } : {}),
    ...(testPatterns ? { testFilePatterns: testPatterns } : {}),
    ...(sourceDir ? { sourceDir } : {}),
    ...(testDir ? { testDir } : {}),
  };
}
