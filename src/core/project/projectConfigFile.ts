import { z } from 'zod';
import { AgentError } from '../errors/agentError';
import { readProjectFile } from './projectFiles';
import { PROJECT_LANGUAGES, type ProjectSettings } from './projectProfile';

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
    language: z.enum(PROJECT_LANGUAGES).optional(),
    testCommand: z.string().trim().min(1, 'must not be empty').max(500).optional(),
    testPatterns: z.array(pattern).min(1, 'must list at least one pattern').max(50).optional(),
    sourceDir: folder.optional(),
    testDir: folder.optional(),
  })
  .strict();

/** `tdd-agent.json` as written. */
export type ProjectConfig = z.infer<typeof ProjectConfigSchema>;

/** Removes `//` and `/* *\/` comments outside strings (JSON with comments), keeping line breaks for positions. */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end < 0 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, ' ');
      i = end < 0 ? text.length : end + 1;
    } else {
      out += ch;
    }
  }
  return out;
}

/** The line of a character offset. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/**
 * Reads `tdd-agent.json` at `root`: undefined when there is none; a file that is not JSON (comments allowed),
 * has an unknown key or a bad value is a CONFIG AgentError naming the file and each field.
 */
export async function readProjectConfig(root: string): Promise<ProjectSettings | undefined> {
  const text = await readProjectFile(root, PROJECT_CONFIG_FILE);
  if (text === undefined) return undefined;
  const file = `${root.replace(/\/+$/, '')}/${PROJECT_CONFIG_FILE}`;
  const json = stripJsonComments(text.replace(/^\uFEFF/, ''));
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const position = /position (\d+)/.exec(reason)?.[1];
    const where = position !== undefined ? ` (line ${lineOf(json, Number(position))})` : '';
    throw new AgentError('CONFIG', `${file} is not valid JSON${where}: ${reason}. Fix it or remove it.`, { file }, { cause });
  }
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
