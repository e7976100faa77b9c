import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { getLogger } from '../logging/logger';

const logger = getLogger('osSandbox');

/** A file shown in place of another inside the sandbox (a read-only bind). */
export interface FileOverlay {
  /** The file on the host that is shown. */
  source: string;
  /** The path it is shown at. */
  target: string;
  /** What `source` holds: written again if the file went missing (a temp-folder cleaner), so the bind never shows the original. */
  content: string;
}

/** Sections kept from a git config, with the keys kept in each (`*`: all, minus {@link DROPPED_KEYS}). */
const KEPT: Record<string, ReadonlySet<string> | '*'> = {
  core: '*',
  extensions: '*',
  remote: new Set(['url', 'pushurl', 'fetch', 'push', 'tagopt', 'mirror', 'prune', 'skipdefaultupdate', 'skipfetchall']),
  branch: new Set(['remote', 'merge', 'rebase', 'pushremote', 'description']),
  user: new Set(['name', 'email']),
  init: new Set(['defaultbranch']),
  submodule: new Set(['url', 'path', 'branch', 'active']),
  worktree: new Set(['guessremote']),
  gc: '*',
  pack: '*',
  index: '*',
  feature: '*',
};

/** Keys of a kept section that name a program or a secret. */
const DROPPED_KEYS = new Set(['sshcommand', 'askpass', 'fsmonitor', 'editor', 'pager', 'gitproxy', 'hookspath']);

/** Keys whose value is a URL: shown without user and password. */
const URL_KEYS = new Set(['url', 'pushurl']);

/** `url` without its user-info part (`https://user:token@host/repo` → `https://host/repo`; `user:pw@host:path` → `host:path`). */
export function withoutUserInfo(url: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)/i.exec(url);
  if (scheme) return scheme[1]! + url.slice(scheme[0].length);
  const scp = /^([^/@:]*:[^/@]*@)([^/:]+:)/.exec(url); // user:password@host:path (a user alone is no secret)
  return scp ? url.slice(scp[1]!.length) : url;
}

/** A value as a quoted git config string. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/**
 * A git config rebuilt from `git config --list -z` output with only safe entries: the sections of `KEPT`, remote
 * and submodule URLs without user info. Everything else goes: `include`/`includeIf` (not followed by `--list --file`,
 * and listed as `include.path`, dropped), `credential.*`, `http.*` (`extraHeader` carries tokens), `url.*.insteadOf`
 * (whose keys hold URLs with tokens), aliases, filters and every other key that names a program.
 */
export function sanitizeGitConfig(listed: string): string {
  const lines: string[] = [];
  let header = '';
  for (const entry of listed.split('\0')) {
    if (!entry) continue;
    const newline = entry.indexOf('\n');
    const key = newline < 0 ? entry : entry.slice(0, newline);
    const value = newline < 0 ? undefined : entry.slice(newline + 1);
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first < 0) continue;
    const section = key.slice(0, first).toLowerCase();
    const name = key.slice(last + 1).toLowerCase();
    const subsection = first === last ? undefined : key.slice(first + 1, last);
    const kept = KEPT[section];
    if (!kept || DROPPED_KEYS.has(name) || (kept !== '*' && !kept.has(name))) continue;
    if (!/^[a-z][a-z0-9-]*$/.test(name)) continue;
    const shown = value !== undefined && URL_KEYS.has(name) ? withoutUserInfo(value) : value;
    const nextHeader = subsection === undefined ? `[${section}]` : `[${section} ${quoted(subsection)}]`;
    if (nextHeader !== header) lines.push((header = nextHeader));
    lines.push(shown === undefined ? `\t${name}` : `\t${name} = ${quoted(shown)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** Files of a git dir that may hold credentials in plain text, hidden inside (besides a credential helper's `--file`). */
const CREDENTIAL_FILES = ['credentials', '.git-credentials', '.credentials'];

/** The `--file` of `credential.helper = store --file <path>` entries, when absolute. */
function credentialStoreFiles(listed: string): string[] {
  const files: string[] = [];
  for (const entry of listed.split('\0')) {
    const [key, value = ''] = entry.split('\n', 2);
    if (!key || !/^credential\.(.*\.)?helper$/i.test(key)) continue;
    const file = /--file(?:=|\s+)("[^"]*"|'[^']*'|\S+)/.exec(value)?.[1]?.replace(/^["']|["']$/g, '');
    if (file && isAbsolute(file)) files.push(file);
  }
  return files;
}

function listConfig(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['config', '--file', file, '--list', '-z'],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' },
        maxBuffer: 16 * 1024 ** 2,
      },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

let privateDir: string | undefined;
/** Names of the copies already written, by config file identity (path, inode, size, mtime). */
const made = new Map<string, string>();

/** The folder the sanitised copies are written to: made once per process with mkdtemp (mode 0700), removed on exit. */
function copiesDir(): string {
  if (!privateDir) {
    privateDir = mkdtempSync(join(tmpdir(), 'tdd-agent-git-config-'));
    const dir = privateDir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return privateDir;
}

/**
 * Writes an overlay's source when it is missing (its folder made again with mode 0700, and refused when something
 * else now stands there: a link, or a folder of another user). Returns false when it cannot be written.
 */
function writeSource(overlay: FileOverlay): boolean {
  if (existsSync(overlay.source)) return true;
  try {
    const dir = dirname(overlay.source);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0) return false;
    writeFileSync(overlay.source, overlay.content, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (err) {
    logger.warn('could not write a sanitised git config for the sandbox', { file: overlay.source, error: err });
    return false;
  }
}

/**
 * The overlays to mount for one launch: those whose target still exists (a linked worktree's config may be gone),
 * each source written again if it went missing. Throws when a source cannot be written: the launch must not show
 * the original file.
 */
export function overlaysForLaunch(overlays: FileOverlay[]): FileOverlay[] {
  const live = overlays.filter((overlay) => existsSync(overlay.target));
  for (const overlay of live)
    if (!writeSource(overlay))
      throw new Error(`the sanitised copy of ${overlay.target} (${overlay.source}) is missing and cannot be written again`);
  return live;
}

/** An overlay that shows `content` over `target`, its source written under a name in the private folder. */
function overlay(name: string, target: string, content: string): FileOverlay {
  const shown = { source: join(copiesDir(), name), target, content };
  if (!writeSource(shown)) throw new Error(`cannot write ${shown.source}`);
  return shown;
}

function isFile(path: string): { key: string } | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? { key: `${path}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}` } : undefined;
  } catch {
    return undefined;
  }
}

/** The git config files of a git dir: `config`, `config.worktree`, and each linked worktree's `config.worktree`. */
function configFiles(gitDir: string): string[] {
  let worktrees: string[] = [];
  try {
    worktrees = readdirSync(join(gitDir, 'worktrees')).map((name) => join(gitDir, 'worktrees', name, 'config.worktree'));
  } catch {
    /* no linked worktrees */
  }
  return [join(gitDir, 'config'), join(gitDir, 'config.worktree'), ...worktrees];
}

/**
 * What bubblewrap shows over the git dirs' files: each config file replaced by a sanitised copy
 * ({@link sanitizeGitConfig}, written once per content into a private folder outside every sandbox's reach), and
 * credential files kept in the git dir or named by a `store --file` helper replaced by an empty file. A config git
 * cannot read becomes an empty file.
 */
export async function gitConfigOverlays(gitDirs: string[]): Promise<FileOverlay[]> {
  const overlays: FileOverlay[] = [];
  // An empty file over credential files (a bind of /dev/null would be unreadable: bubblewrap binds without devices).
  const hide = (target: string) => overlays.push(overlay('empty', target, ''));
  for (const gitDir of gitDirs) {
    for (const file of configFiles(gitDir)) {
      const found = isFile(file);
      if (!found) continue;
      const listed = await listConfig(file);
      for (const store of credentialStoreFiles(listed ?? '')) if (isFile(store)) hide(store);
      if (listed === undefined) logger.warn('git could not read a config file; the sandbox shows it empty', { file });
      const name = made.get(found.key) ?? `config-${made.size + 1}`;
      made.set(found.key, name);
      overlays.push(overlay(name, file, listed === undefined ? '' : sanitizeGitConfig(listed)));
    }
    for (const name of CREDENTIAL_FILES) if (isFile(join(gitDir, name))) hide(join(gitDir, name));
  }
  return overlays;
}
