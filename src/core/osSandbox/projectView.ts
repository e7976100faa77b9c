import { spawn, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { release } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { getLogger } from '../logging/logger';
import type { ProjectViewNamespace } from './types';

const log = getLogger('osSandbox');

/**
 * The person's project as they have it, shown to a session's sandbox (bubblewrap): what git ignores in the person's
 * checkout (`node_modules` at every level, the virtual environment, a generated `_version.py`, build outputs) appears
 * at the same paths in the session's worktree, copy-on-write. Folders are kernel overlays whose lower layer is the
 * person's folder and whose upper layer is the session's own (`<worktree>.view/`); files are the session's copies,
 * bound in place. The mounts live only in a mount namespace the session holds open: the host, its git and the
 * session's commits never see them, and nothing is ever written to the person's files.
 */
export interface ProjectViewSpec {
  /** The person's checkout (real path): read only. */
  checkout: string;
  /** The session's worktree (real path): where the entries appear. */
  worktree: string;
  /** Entries git ignores in the checkout, relative with `/`, a folder ending in `/` (`git ls-files -oi --directory`). */
  entries: string[];
}

/** An open view: the namespace every sandboxed launch of the session enters (the policy's `view`), and what it shows. */
export interface ProjectView extends ProjectViewNamespace {
  /** Entries not shown, with why (a secret, a link on the way, a failed mount). */
  readonly skipped: readonly { path: string; why: string }[];
  /** Ends the namespace (the mounts go with it); the session's layer stays until its worktree is removed. */
  close(): void;
}

/** Ignored entries never shown: files that hold secrets, and the agent's and git's own folders. */
const SECRET_NAME =
  /^(\.env(\..+)?|\.npmrc|\.yarnrc(\.yml)?|\.pypirc|\.netrc|\.git-credentials|credentials(\.json)?|secrets?(\..+)?|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|.*\.(pem|key|p12|pfx|keystore|jks)|\.ssh|\.aws|\.gnupg|\.docker|\.kube|\.azure)$/i;
const ENV_TEMPLATE = /^\.env\.(example|sample|template|dist)$/i;
/** Caches a run makes again by itself: showing the person's would only risk stale results (a `.pytest_cache` `--lf`). */
const CACHE_NAME =
  /^(__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.hypothesis|\.nyc_output|\.eslintcache|\.tdd|\.tdd-agent|.*\.tsbuildinfo)$/;
/** More mounts than this would slow every launch; the first ones (shortest paths first) are shown. */
const MAX_ENTRIES = 256;

/** Why an ignored entry is not shown, or undefined when it is. */
export function viewEntryRefusal(path: string): string | undefined {
  const segments = path.replace(/\/$/, '').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || /[\n,:\\]/.test(s))) return 'an unusual path';
  if (segments.some((s) => s.toLowerCase() === '.git')) return "git's own folder";
  const secret = segments.find((s) => SECRET_NAME.test(s) && !ENV_TEMPLATE.test(s));
  if (secret) return `'${secret}' may hold secrets`;
  if (segments.some((s) => CACHE_NAME.test(s))) return 'a cache the run makes again';
  return undefined;
}

/** Where a session's copy-on-write layer lives: beside its worktree, removed with it. */
export function projectViewLayer(worktree: string): string {
  return `${worktree}.view`;
}

/** Removes a session's layer (overlay work folders are left mode 000 by the kernel: opened up first). */
export function removeProjectViewLayer(worktree: string): void {
  const layer = projectViewLayer(worktree);
  if (!existsSync(layer)) return;
  const open = (dir: string) => {
    try {
      chmodSync(dir, 0o700);
      for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) open(join(dir, entry.name));
    } catch {
      /* rmSync says what is left */
    }
  };
  open(join(layer, 'work'));
  rmSync(layer, { recursive: true, force: true });
}

const TOOL_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

function tool(name: string): string | undefined {
  for (const dir of TOOL_DIRS) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** The programs a view needs, or why it cannot be had here (overlayfs in a user namespace needs Linux 5.11). */
export function projectViewTools(): { unshare: string; nsenter: string; mount: string } | { missing: string } {
  if (process.platform !== 'linux') return { missing: 'not Linux' };
  const [major = 0, minor = 0] = release()
    .split('.')
    .map((part) => parseInt(part, 10));
  if (major < 5 || (major === 5 && minor < 11))
    return { missing: `Linux ${release()} (overlayfs in a user namespace needs 5.11)` };
  const unshare = tool('unshare');
  const nsenter = tool('nsenter');
  const mount = tool('mount');
  if (!unshare || !nsenter || !mount) return { missing: 'util-linux (unshare, nsenter, mount)' };
  return { unshare, nsenter, mount };
}

/** True when `path` is a real folder (or missing) reached from `root` through real folders only: no link on the way. */
function throughFoldersOnly(root: string, rel: string): boolean {
  let at = root;
  for (const segment of rel.split('/').slice(0, -1)) {
    at = join(at, segment);
    try {
      if (!lstatSync(at).isDirectory()) return false;
    } catch {
      return true; // made below, by us
    }
  }
  return true;
}

interface PlannedMount {
  /** `overlay` lower/upper/work or a bound file copy. */
  kind: 'dir' | 'file';
  source: string;
  target: string;
  upper?: string;
  work?: string;
}

/** Makes the layer's folders, the file copies and the worktree's mount points; returns the mounts, and what was skipped. */
function planMounts(spec: ProjectViewSpec, skipped: { path: string; why: string }[]): PlannedMount[] {
  const layer = projectViewLayer(spec.worktree);
  const planned: PlannedMount[] = [];
  const entries = [...spec.entries].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  for (const entry of entries) {
    const rel = entry.replace(/\/$/, '');
    const refusal = viewEntryRefusal(entry);
    if (refusal) {
      skipped.push({ path: rel, why: refusal });
      continue;
    }
    if (planned.length >= MAX_ENTRIES) {
      skipped.push({ path: rel, why: `more than ${MAX_ENTRIES} ignored entries` });
      continue;
    }
    const source = join(spec.checkout, rel);
    const target = join(spec.worktree, rel);
    let kind: 'dir' | 'file';
    try {
      const stat = lstatSync(source);
      if (stat.isDirectory()) kind = 'dir';
      else if (stat.isFile()) kind = 'file';
      else {
        skipped.push({ path: rel, why: stat.isSymbolicLink() ? 'a link' : 'not a file or folder' });
        continue;
      }
    } catch {
      continue; // gone since git listed it
    }
    if (!throughFoldersOnly(spec.worktree, rel) || !throughFoldersOnly(spec.checkout, rel)) {
      skipped.push({ path: rel, why: 'a link on the way' });
      continue;
    }
    const key = encodeURIComponent(rel);
    try {
      mkdirSync(dirname(target), { recursive: true });
      if (kind === 'dir') {
        if (existsSync(target) && (!lstatSync(target).isDirectory() || readdirSync(target).length > 0)) {
          skipped.push({ path: rel, why: 'the worktree has files there' });
          continue;
        }
        mkdirSync(target, { recursive: true });
        const upper = join(layer, 'upper', key);
        const work = join(layer, 'work', key);
        mkdirSync(upper, { recursive: true });
        mkdirSync(work, { recursive: true });
        planned.push({ kind, source, target, upper, work });
      } else {
        if (existsSync(target) && (!lstatSync(target).isFile() || lstatSync(target).size > 0)) {
          skipped.push({ path: rel, why: 'the worktree has a file there' });
          continue;
        }
        const copy = join(layer, 'files', key);
        mkdirSync(dirname(copy), { recursive: true });
        if (!existsSync(copy)) copyFileSync(source, copy); // once: a resumed session keeps its own changes
        if (!existsSync(target)) writeFileSync(target, '');
        planned.push({ kind, source: copy, target });
      }
    } catch (err) {
      skipped.push({ path: rel, why: (err as Error).message });
    }
  }
  return planned;
}

/** The holder's script: each mount (`dir LOWER UPPER WORK TARGET` or `file COPY TARGET`), a line per result, then `ready`, then wait for stdin to close. */
const HOLDER_SCRIPT = `mount_bin="$1"; shift
while [ "$#" -gt 0 ]; do
  if [ "$1" = dir ]; then
    if "$mount_bin" -n -t overlay overlay -o "lowerdir=$2,upperdir=$3,workdir=$4,userxattr" "$5" 2>/dev/null; then echo "ok $5"; else echo "failed $5"; fi
    shift 5
  else
    if "$mount_bin" -n --bind "$2" "$3" 2>/dev/null; then echo "ok $3"; else echo "failed $3"; fi
    shift 3
  fi
done
echo ready
read -r _ || true`;

/**
 * Opens the view: a process in a new user and mount namespace mounts each entry, says which mounts held, and then
 * waits on its standard input, so it ends with the session (`close`) or with the process that made it, however that
 * ends (its end of the pipe closes). Resolves undefined, with the reason logged, when the view cannot be had here;
 * the session then runs as before it existed (the dependencies the supervisor shows by itself).
 */
export async function openProjectView(spec: ProjectViewSpec): Promise<ProjectView | undefined> {
  const tools = projectViewTools();
  if ('missing' in tools) {
    log.info('no project view: the sandbox shows only the dependencies it knows', { why: tools.missing });
    return undefined;
  }
  const skipped: { path: string; why: string }[] = [];
  const planned = planMounts(spec, skipped);
  if (planned.length === 0) return { pid: 0, mounted: [], nsenter: tools.nsenter, skipped, close() {} };
  const args = planned.flatMap((m) =>
    m.kind === 'dir' ? ['dir', m.source, m.upper!, m.work!, m.target] : ['file', m.source, m.target],
  );
  const child: ChildProcess = spawn(
    tools.unshare,
    [
      '--user',
      '--map-root-user',
      '--mount',
      '--propagation',
      'private',
      '--',
      '/bin/sh',
      '-c',
      HOLDER_SCRIPT,
      'tdd-agent-view',
      tools.mount,
      ...args,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' } },
  );
  const lines = await new Promise<string[] | undefined>((resolve) => {
    let out = '';
    let err = '';
    const done = (value: string[] | undefined) => {
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/(^|\n)ready\n/.test(out)) done(out.split('\n').filter(Boolean));
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', () => done(undefined));
    child.on('exit', (code) => {
      if (!/(^|\n)ready\n/.test(out)) {
        log.info('no project view: its namespace could not be made', { code, stderr: err.slice(0, 500) });
        done(undefined);
      }
    });
  });
  if (!lines || child.pid === undefined) {
    child.kill('SIGKILL');
    return undefined;
  }
  const mounted: string[] = [];
  for (const line of lines) {
    const [status, ...rest] = line.split(' ');
    const target = rest.join(' ');
    if (status === 'ok') mounted.push(target);
    else if (status === 'failed') skipped.push({ path: target.slice(spec.worktree.length + 1), why: 'the mount failed' });
  }
  child.stdout!.removeAllListeners('data');
  child.stdout!.resume();
  child.stderr!.resume();
  // The holder must not keep the CLI alive; its stdin pipe still ends it when the CLI goes.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stderr as unknown as { unref?: () => void }).unref?.();
  if (skipped.length) log.info('project view: entries not shown', { skipped });
  const pid = child.pid;
  return {
    pid,
    mounted,
    nsenter: tools.nsenter,
    skipped,
    close() {
      child.stdin?.end();
      child.kill('SIGTERM');
    },
  };
}

/** True when `path` is one of the view's mounts or below one. */
export function inProjectView(view: Pick<ProjectView, 'mounted'> | undefined, path: string): boolean {
  return Boolean(view?.mounted.some((m) => path === m || path.startsWith(m + sep)));
}
