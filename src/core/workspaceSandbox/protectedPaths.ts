/**
 * Which workspace paths need more than the tool's own approval.
 *
 * - Under `.git/` (at any depth, any letter case; also a `.git` file): never written or deleted.
 *   Git's internals hold hooks and config that run code; no approval can unlock them.
 * - Protected paths (any depth, any letter case): a write or delete needs a one-off approval at HIGH.
 *   Each one can make code run outside the red-green loop or change what git records:
 *   - `.vscode/`: tasks and settings can run commands when the folder opens;
 *   - `.github/`, `.devcontainer/`: CI workflows and containers run with secrets;
 *   - `.husky/`, `.githooks/`: git hooks run on commit;
 *   - `.tdd/`: the agent's own session state and audit trail;
 *   - `.env`, `.env.*`: secrets;
 *   - `.gitignore`, `.gitattributes`, `.gitmodules`: change what git tracks and how it filters files;
 *   - `.npmrc`, `.yarnrc`, `.yarnrc.yml`: package registries and tokens.
 * - Secret files: reading `.env` / `.env.*` (but not `.env.example`, `.env.sample`, `.env.template`)
 *   also needs HIGH approval, since whatever the model reads is sent to the model provider.
 */
export const PROTECTED_DIRECTORIES = ['.vscode', '.github', '.devcontainer', '.husky', '.githooks', '.tdd'] as const;

/** File names (any depth) whose write or delete needs HIGH approval; see {@link PROTECTED_DIRECTORIES}. */
export const PROTECTED_FILES = ['.gitignore', '.gitattributes', '.gitmodules', '.npmrc', '.yarnrc', '.yarnrc.yml'] as const;

const SECRET_FILE = /^\.env(\..+)?$/;
const SECRET_TEMPLATE = /^\.env\.(example|sample|template|dist)$/;

/** What a tool is about to do with a path. */
export type PathAccess = 'read' | 'write' | 'delete';

/**
 * Lower-cases a path segment and drops trailing dots and spaces, which some file systems ignore
 * (`.GIT`, `.git.` and `.git ` all name `.git` on a case-insensitive or Windows file system).
 */
function normalizeSegment(segment: string): string {
  return segment.toLowerCase().replace(/[. ]+$/, (tail) => (tail.length === segment.length ? tail : ''));
}

function segmentsOf(relativePath: string): string[] {
  return relativePath
    .split(/[\\/]+/)
    .filter((s) => s.length > 0 && s !== '.')
    .map(normalizeSegment);
}

/** True when a workspace-relative path is `.git` or lies under a `.git` folder at any depth. */
export function isGitInternalPath(relativePath: string): boolean {
  return segmentsOf(relativePath).includes('.git');
}

/**
 * Why touching this workspace-relative path needs a one-off HIGH approval, or undefined when it
 * does not. `.git` paths are not covered here: they are refused outright (see {@link isGitInternalPath}).
 */
export function protectedPathReason(relativePath: string, access: PathAccess): string | undefined {
  const segments = segmentsOf(relativePath);
  const name = segments.at(-1) ?? '';
  if (access === 'read') {
    return SECRET_FILE.test(name) && !SECRET_TEMPLATE.test(name)
      ? `'${name}' files usually hold secrets, and what the model reads is sent to the model provider`
      : undefined;
  }
  const dir = segments.slice(0, -1).find((s) => (PROTECTED_DIRECTORIES as readonly string[]).includes(s));
  if (dir) return `'${dir}/' is a protected folder (it can run code or holds the agent's own records)`;
  if ((PROTECTED_DIRECTORIES as readonly string[]).includes(name)) return `'${name}' is a protected folder`;
  if (SECRET_FILE.test(name)) return `'${name}' files hold secrets`;
  if ((PROTECTED_FILES as readonly string[]).includes(name)) return `'${name}' changes what git or the package manager does`;
  return undefined;
}
