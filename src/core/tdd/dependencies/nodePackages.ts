/** A Node project's package manager, as its package.json and lockfiles say, and the key of its shared install. */
import { createHash } from 'node:crypto';
import type { NodePackageManager } from './projectDependencyTypes';

/** Lockfiles by package manager, in the order they are looked for. */
export const LOCKFILES: Readonly<Record<NodePackageManager, readonly string[]>> = Object.freeze({
  pnpm: ['pnpm-lock.yaml'],
  npm: ['npm-shrinkwrap.json', 'package-lock.json'],
  yarn: ['yarn.lock'],
});

/** The manager a package.json's `packageManager` field names, and its version (`pnpm@10.34.9+sha512…`). */
export function declaredPackageManager(packageJson: string): { name: NodePackageManager; version?: string } | undefined {
  try {
    const field = (JSON.parse(packageJson) as { packageManager?: unknown }).packageManager;
    const m = typeof field === 'string' ? /^(npm|pnpm|yarn)@([^+\s]+)/.exec(field.trim()) : null;
    return m ? { name: m[1] as NodePackageManager, version: m[2] } : undefined;
  } catch {
    return undefined;
  }
}

/** The key of a shared install: the manager, the lockfile's name and its bytes. */
export function storeKey(manager: NodePackageManager, lockfileName: string, lockfileText: string): string {
  return createHash('sha256').update(`${manager}\0${lockfileName}\0`).update(lockfileText).digest('hex').slice(0, 32);
}

/** The command a person runs to install a project with `manager`. */
export function personInstall(manager: NodePackageManager): string {
  return manager === 'npm' ? 'npm install' : `${manager} install`;
}

/** The manager of a Node project: package.json's `packageManager`, else the lockfile found, else npm. */
export function nodeManager(
  packageJson: string,
  entries: Map<string, string>,
): { manager: NodePackageManager; version?: string } {
  const declared = declaredPackageManager(packageJson);
  if (declared) return { manager: declared.name, version: declared.version };
  for (const manager of ['pnpm', 'yarn', 'npm'] as const) {
    if (LOCKFILES[manager].some((name) => entries.get(name) === 'blob')) return { manager };
  }
  return { manager: 'npm' };
}
