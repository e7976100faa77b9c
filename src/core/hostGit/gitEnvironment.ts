import { scrubEnv } from '../process/scrubEnv';

/** The author of commits made where git has no `user.name`/`user.email` (e.g. a fresh CI machine). */
export const FALLBACK_GIT_IDENTITY = { name: 'TDD Agent', email: 'tdd-agent@localhost' } as const;

/** `GIT_*` variables that only name an identity or isolate configuration: safe to pass through. */
const SAFE_GIT_VARIABLES = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_TERMINAL_PROMPT',
]);

/** Variables that make git start another program. */
const PROGRAM_VARIABLES = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX', 'SSH_ASKPASS']);

/**
 * The environment every git call of the product runs with: credentials removed (hooks must not
 * read API keys), no variables that start other programs, and no `GIT_*` variable except identity
 * and config isolation — `GIT_DIR`, `GIT_WORK_TREE` or `GIT_CONFIG_*` could point git at another
 * repository or configuration. `allow` lists the `GIT_*` names kept, for simple-git's environment guard.
 */
export function gitEnvironment(env: NodeJS.ProcessEnv = process.env): { env: Record<string, string>; allow: string[] } {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(scrubEnv(env))) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (PROGRAM_VARIABLES.has(upper)) continue;
    if (upper.startsWith('GIT') && !SAFE_GIT_VARIABLES.has(upper)) continue;
    clean[name] = value;
  }
  return { env: clean, allow: Object.keys(clean).filter((k) => k.toUpperCase().startsWith('GIT_')) };
}
