import { cargoPackageName } from '../testRunners/reports/cargoPackages';
import { readProjectFile } from './projectFiles';

/** What a Cargo manifest at a project's root says: a crate or a workspace, and the test command and files of each. */
export interface RustProjectFacts {
  /** `[package] name` (undefined for a workspace root without a package of its own). */
  crateName?: string;
  /** True when the root is a `[workspace]` with members and no `[package]`: a virtual manifest. */
  workspace: boolean;
  /** `cargo test` (a crate), `cargo test --workspace` (a workspace root: every member). */
  command: string;
  /**
   * Files that are tests whole: `tests/**\/*.rs` (a crate's integration tests; of every member for a workspace). A unit
   * test module (`#[cfg(test)] mod tests { … }`) lives in the file it tests: that file is code, and only the module
   * is the tests' (see the role boundaries' test regions).
   */
  patterns: string[];
}

/** The test command of a Cargo crate. */
export const CARGO_TEST_COMMAND = 'cargo test';
/** A crate's integration tests: every `.rs` file under `tests/`. */
export const RUST_TEST_PATTERNS = ['tests/**/*.rs'];

/**
 * The facts of a Cargo project at `root` (its `Cargo.toml`), or undefined when there is none. A workspace root
 * without a package of its own runs `cargo test --workspace` and takes every member's `tests/` as tests (the cargo
 * report reader places each test in its member's file).
 */
export async function readRustProject(root: string): Promise<RustProjectFacts | undefined> {
  const manifest = await readProjectFile(root, 'Cargo.toml');
  if (manifest === undefined) return undefined;
  const crateName = cargoPackageName(manifest);
  const workspace = crateName === undefined && /^\s*\[workspace\]\s*$/m.test(manifest);
  return {
    ...(crateName ? { crateName } : {}),
    workspace,
    command: workspace ? `${CARGO_TEST_COMMAND} --workspace` : CARGO_TEST_COMMAND,
    patterns: workspace ? ['tests/**/*.rs', '*/tests/**/*.rs', '*/*/tests/**/*.rs'] : [...RUST_TEST_PATTERNS],
  };
}
