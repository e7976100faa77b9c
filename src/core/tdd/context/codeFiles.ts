/** Source files by extension: what a role reads in full or sees in the repository map with its symbols. */
const CODE_FILE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|cs|php|swift)$/;
/** Folders of documentation, examples, CI and editor settings: their files are listed, never shown ahead of source. */
const NOT_SOURCE_FOLDER =
  /(?:^|\/)(?:docs?|examples?|benchmarks?|bench|scripts|\.github|\.circleci|\.gitlab|\.vscode|\.husky|\.devcontainer)\//;
/** Code that configures tools rather than being the project (`vitest.config.ts`, `setup.py`, `conf.py`). */
const TOOL_CONFIG =
  /(?:^|\/)(?:[^/]+\.config\.[cm]?[jt]s|setup\.py|conf\.py|noxfile\.py|fabfile\.py|Gruntfile\.js|gulpfile\.js)$/;

/**
 * True for a project's own code — production or tests — by its extension, outside documentation, example, CI and
 * editor folders, and not a tool's config file. Only these are shown to a role in full or mapped with their symbols;
 * everything else (docs, CI, licences, manifests, lockfiles) is listed by path and size after them.
 */
export function isProjectCode(path: string): boolean {
  return CODE_FILE.test(path) && !NOT_SOURCE_FOLDER.test(path) && !TOOL_CONFIG.test(path);
}

/** Lock files and the like cost tokens and say nothing about the task. */
export function isLockFile(path: string): boolean {
  return /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|Pipfile\.lock|Cargo\.lock|go\.sum)$/.test(
    path,
  );
}
