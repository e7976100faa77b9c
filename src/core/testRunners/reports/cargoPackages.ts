import { posix } from 'node:path';
import { readTreeFolder, readTreeText } from '../../workspaceSandbox/untrustedTree';

/** Largest Cargo.toml read. */
const MAX_MANIFEST_BYTES = 256 * 1024;
/** Most workspace members read (a glob may name many folders). */
const MAX_MEMBERS = 200;

/** A package of the Cargo project a run tests: its folder and the name its test binaries carry. */
export interface CargoPackage {
  /** Workspace-relative folder, `''` for the root's own package. */
  dir: string;
  /** The crate's name as a binary carries it (`shout-words` → `shout_words`). */
  crate: string;
}

/** The body of a manifest's `[name]` table, up to the next table. */
function table(manifest: string, name: string): string | undefined {
  return new RegExp(`^\\s*\\[${name}\\]\\s*$([^]*?)(?=^\\s*\\[|(?![^]))`, 'm').exec(manifest)?.[1];
}

/** The `name` of the manifest's `[package]` table, or undefined. */
export function cargoPackageName(manifest: string): string | undefined {
  return /^\s*name\s*=\s*"([^"]+)"/m.exec(table(manifest, 'package') ?? '')?.[1];
}

/** The crate a package's library builds: `[lib] name`, else the package's name with `-` as `_`. */
function crateName(manifest: string): string | undefined {
  const lib = /^\s*name\s*=\s*"([^"]+)"/m.exec(table(manifest, 'lib') ?? '')?.[1];
  return (lib ?? cargoPackageName(manifest))?.replace(/-/g, '_');
}

/** `[workspace] members`: literal folders, and `dir/*` globs (each folder under `dir`), in the manifest's order. */
async function memberFolders(workspace: string, manifest: string): Promise<string[]> {
  const members = /^\s*members\s*=\s*\[([^\]]*)\]/m.exec(table(manifest, 'workspace') ?? '')?.[1] ?? '';
  const folders: string[] = [];
  for (const [, member] of members.matchAll(/"([^"]+)"/g)) {
    const path = posix.normalize(member!).replace(/\/$/, '');
    if (path.startsWith('..') || posix.isAbsolute(path)) continue;
    if (!path.endsWith('/*')) {
      folders.push(path);
      continue;
    }
    const parent = path.slice(0, -2);
    for (const name of await readTreeFolder(workspace, parent).catch(() => [])) folders.push(posix.join(parent, name));
  }
  return folders.slice(0, MAX_MEMBERS);
}

/**
 * The packages of the Cargo project at the workspace's root, read from its manifests (untrusted: through the tree
 * reader, size-limited): the root's own `[package]`, and each `[workspace]` member's. Empty when there is no
 * Cargo.toml.
 */
export async function cargoPackages(workspace: string): Promise<CargoPackage[]> {
  const root = await readTreeText(workspace, 'Cargo.toml', MAX_MANIFEST_BYTES).catch(() => undefined);
  if (root === undefined) return [];
  const packages: CargoPackage[] = [];
  const own = crateName(root);
  if (own && table(root, 'package') !== undefined) packages.push({ dir: '', crate: own });
  for (const dir of await memberFolders(workspace, root)) {
    const manifest = await readTreeText(workspace, `${dir}/Cargo.toml`, MAX_MANIFEST_BYTES).catch(() => undefined);
    const crate = manifest === undefined ? undefined : crateName(manifest);
    if (crate) packages.push({ dir, crate });
  }
  return packages;
}

/**
 * The package a test binary was built from, given the file cargo names (relative to its package: `src/lib.rs`,
 * `tests/basic.rs`) and the binary's name: the one package that has that file, else, among those that have it, the
 * one whose crate the binary is named after (a library's unit tests). Undefined when no package, or more than one,
 * fits (two members' `tests/basic.rs`).
 */
export async function packageOfBinary(
  packages: readonly CargoPackage[],
  target: string,
  binary: string,
  exists: (file: string) => Promise<boolean>,
): Promise<CargoPackage | undefined> {
  const having: CargoPackage[] = [];
  for (const pkg of packages) if (await exists(posix.join(pkg.dir, target))) having.push(pkg);
  if (having.length === 1) return having[0];
  const named = having.filter((pkg) => pkg.crate === binary);
  return named.length === 1 ? named[0] : undefined;
}
