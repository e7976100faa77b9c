/** Reading a project's manifests for what an install would fetch: dependencies from outside a registry, and how many it declares. */

/** What a package.json declares. */
interface Manifest {
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  peerDependencies?: Record<string, unknown>;
  overrides?: unknown;
}

/**
 * True when npm would not take `spec` from a registry: git URLs (`git+…`, `git:`, `git@…`), hosted shorthands
 * (`github:`, `gitlab:`, `bitbucket:`, `gist:`, `user/repo`), local folders and files (`file:`, `link:`, `./x`,
 * `../x`, `/x`, `~/x`) and tarball URLs (`http(s)://`). `npm:` aliases are judged by what they alias.
 */
export function isNonRegistrySpec(spec: string): boolean {
  const s = spec.trim();
  if (/^npm:/i.test(s)) {
    const aliased = s.slice(4);
    const at = aliased.lastIndexOf('@');
    return at > 0 ? isNonRegistrySpec(aliased.slice(at + 1)) : false;
  }
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:|file:|link:|https?:|ssh:)/i.test(s)) return true;
  if (/^[^@\s]+@[^:\s]+:/.test(s)) return true; // git@host:repo
  if (/^(\.{1,2}\/|\/|~\/|\.{1,2}$)/.test(s)) return true;
  return /^[^@\s/:#]+\/[^\s/:#]+(#.*)?$/.test(s); // user/repo, user/repo#ref
}

/** Every dependency spec npm would fetch from elsewhere than a registry, as `name: spec`, from package.json and the lockfile. */
export function nonRegistrySpecs(packageJson: string, lockfile?: string | null): string[] {
  const found: string[] = [];
  const pkg = JSON.parse(packageJson) as Manifest;
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    for (const [name, spec] of Object.entries(pkg[field] ?? {}))
      if (typeof spec === 'string' && isNonRegistrySpec(spec)) found.push(`${name}: ${spec}`);
  }
  const overrides = (value: unknown, path: string): void => {
    if (typeof value === 'string' && value.startsWith('$')) return;
    if (typeof value === 'string') {
      if (isNonRegistrySpec(value)) found.push(`overrides ${path}: ${value}`);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) overrides(v, path ? `${path} > ${k}` : k);
    }
  };
  overrides(pkg.overrides, '');
  if (lockfile) {
    try {
      const lock = JSON.parse(lockfile) as { packages?: Record<string, { resolved?: unknown; link?: unknown }> };
      for (const [path, entry] of Object.entries(lock.packages ?? {})) {
        if (!path) continue;
        if (entry.link === true) found.push(`lockfile ${path}: a link to ${String(entry.resolved)}`);
        else if (typeof entry.resolved === 'string' && /^(git\+|git:|github:|file:|ssh:)/i.test(entry.resolved))
          found.push(`lockfile ${path}: ${entry.resolved}`);
      }
    } catch {
      /* npm reports a broken lockfile itself */
    }
  }
  return found;
}

/** The number of packages a package.json asks for (0 when it cannot be parsed: the test runner reports it). */
export function declaredCount(packageJson: string): number {
  try {
    const pkg = JSON.parse(packageJson) as Manifest;
    return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }).length;
  } catch {
    return 0;
  }
}

/** Dependencies a pnpm or yarn lockfile resolves from elsewhere than a registry (git, local folders, tarball URLs). */
export function lockfileNonRegistry(manager: 'pnpm' | 'yarn', text: string): string[] {
  const found: string[] = [];
  const lines = text.split(/\r?\n/);
  const pattern =
    manager === 'pnpm'
      ? /^\s+(resolution:\s*\{.*\b(tarball|repo|directory|type:\s*git)\b.*\}|version:\s*(link|file):.*)$/
      : /^\s+resolved\s+"(git[+:]|file:|link:|https?:\/\/codeload\.github\.com\/)/;
  for (const line of lines) if (pattern.test(line)) found.push(`lockfile: ${line.trim()}`);
  return found;
}
