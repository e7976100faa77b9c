import { AgentError } from '../errors/agentError';
import { identifyRunner, type RunnerKind } from '../testRunners/runnerKinds';
import { folderEntries, readProjectFile } from './projectFiles';
import { PACKAGE_MANAGERS, type PackageManager } from './projectProfile';
import { readConfigStrings } from './simpleConfigValues';
import { testScriptCommand } from '../testRunners/testScriptSteps';
import { shellWord } from '../testRunners/reports/commandLine';

/** What package.json and the files around it say about a JavaScript or TypeScript project. */
export interface NodeProjectFacts {
  /** True when `typescript` is a dependency or a tsconfig.json exists. */
  typescript: boolean;
  packageManager: PackageManager;
  /** What named the package manager (`packageManager`, a lockfile); undefined: nothing did (npm). */
  packageManagerFrom?: string;
  /** package.json's `scripts.test`, unless it is npm's placeholder. */
  testScript?: string;
  /** dependencies and devDependencies together (names only matter). */
  dependencies: Record<string, unknown>;
  /** The runner and the command that runs the tests, when something in the project names one. */
  runner?: RunnerKind;
  command?: string;
  /** The runner's own test file globs, when its configuration says so plainly. */
  patterns?: string[];
  /** The runner's configuration files found (relative). */
  configFiles: string[];
  notes: string[];
}

/** npm's placeholder script: not a test runner. */
const NPM_PLACEHOLDER = /no test specified/;

/** Lockfiles, in the order they are looked for. */
const LOCKFILES: ReadonlyArray<[string, PackageManager]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

const CONFIG_EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'];

/** Each runner's default test files (its documentation's globs). */
const RUNNER_DEFAULT_PATTERNS: Partial<Record<RunnerKind, string[]>> = {
  vitest: ['**/*.{test,spec}.?(c|m)[jt]s?(x)'],
  jest: ['**/__tests__/**/*.?([mc])[jt]s?(x)', '**/?(*.)+(spec|test).?([mc])[jt]s?(x)'],
  mocha: ['test/**'],
};

interface PackageJson {
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  packageManager?: unknown;
  jest?: { testMatch?: unknown };
  mocha?: { spec?: unknown };
}

function strings(value: unknown): string[] | undefined {
  if (typeof value === 'string' && value.trim()) return [value.trim()];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string') && value.length > 0) return value as string[];
  return undefined;
}

/** `pnpm@9.1.0+sha512…` → pnpm. */
function managerOf(field: unknown): PackageManager | undefined {
  if (typeof field !== 'string') return undefined;
  const name = field.split('@')[0]!.trim();
  return (PACKAGE_MANAGERS as readonly string[]).includes(name) ? (name as PackageManager) : undefined;
}

/** A JSON (or JSON-with-comments) text's value, or undefined when it cannot be parsed. */
function parseLooseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\s*\/\/[^\n]*$/gm, ''));
  } catch {
    return undefined;
  }
}

/** The runner's test globs from its configuration, when written plainly. */
async function configuredPatterns(
  root: string,
  runner: RunnerKind,
  pkg: PackageJson,
  configFiles: string[],
  notes: string[],
): Promise<string[] | undefined> {
  const strip = (patterns: string[]): string[] => patterns.map((p) => p.replace(/^<rootDir>\//, '').replace(/^\.\//, ''));
  if (runner === 'jest') {
    const fromPackage = strings(pkg.jest?.testMatch);
    if (fromPackage) return strip(fromPackage);
  }
  if (runner === 'mocha') {
    const fromPackage = strings(pkg.mocha?.spec);
    if (fromPackage) return strip(fromPackage);
  }
  for (const file of configFiles) {
    const text = await readProjectFile(root, file);
    if (text === undefined) continue;
    let found: string[] | undefined;
    if (runner === 'vitest' && /(^|\/)(vitest|vite)\.config\./.test(file)) found = readConfigStrings(text, 'include', 'test');
    else if (runner === 'jest' && /(^|\/)jest\.config\./.test(file))
      found = file.endsWith('.json')
        ? strings((parseLooseJson(text) as { testMatch?: unknown })?.testMatch)
        : readConfigStrings(text, 'testMatch');
    else if (runner === 'mocha' && /(^|\/)\.mocharc\./.test(file)) {
      if (/\.jsonc?$/.test(file)) found = strings((parseLooseJson(text) as { spec?: unknown })?.spec);
      else if (/\.ya?ml$/.test(file)) found = strings(/^spec:\s*(.+)$/m.exec(text)?.[1]?.replace(/^['"]|['"]$/g, ''));
      else found = readConfigStrings(text, 'spec');
    }
    if (found) return strip(found);
    if (/\b(include|testMatch|spec)\s*:/.test(text))
      notes.push(
        `${file} sets the test files in a way that is not read here; the runner's defaults are assumed (pass --test-pattern to say which files are tests).`,
      );
  }
  return undefined;
}

/**
 * Reads package.json at `root` (undefined when there is none; a package.json that is not JSON is a CONFIG
 * AgentError naming it), the lockfiles, tsconfig.json and the runners' configuration files.
 */
export async function readNodeProject(root: string): Promise<NodeProjectFacts | undefined> {
  const text = await readProjectFile(root, 'package.json');
  if (text === undefined) return undefined;
  let pkg: PackageJson;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    pkg = parsed as PackageJson;
  } catch (cause) {
    throw new AgentError(
      'CONFIG',
      `package.json in ${root} is not a valid JSON object (${cause instanceof Error ? cause.message : String(cause)}): fix it so the project's test script and dependencies can be read.`,
      { file: 'package.json', root },
      { cause },
    );
  }
  const entries = await folderEntries(root);
  const dependencies = { ...(pkg.dependencies ?? {}), ...(pkg.devDependencies ?? {}) };
  const notes: string[] = [];

  const fromField = managerOf(pkg.packageManager);
  const lock = LOCKFILES.find(([file]) => entries.includes(file));
  const packageManager = fromField ?? lock?.[1] ?? 'npm';
  const packageManagerFrom = fromField ? 'packageManager' : lock?.[0];

  const configFiles = [
    ...CONFIG_EXTENSIONS.flatMap((ext) => [`vitest.config.${ext}`, `vite.config.${ext}`, `jest.config.${ext}`]),
    'jest.config.json',
    ...['.mocharc.js', '.mocharc.cjs', '.mocharc.mjs', '.mocharc.json', '.mocharc.jsonc', '.mocharc.yaml', '.mocharc.yml'],
  ].filter((f) => entries.includes(f));
  const hasConfig = (prefix: string): boolean => configFiles.some((f) => f.startsWith(prefix));
  const viteHasTest = async (): Promise<boolean> => {
    for (const f of configFiles.filter((f) => f.startsWith('vite.config.')))
      if (/\btest\s*:/.test((await readProjectFile(root, f)) ?? '')) return true;
    return false;
  };

  const script = typeof pkg.scripts?.test === 'string' ? pkg.scripts.test.trim() : undefined;
  const testScript = script && !NPM_PLACEHOLDER.test(script) ? script : undefined;
  let runner: RunnerKind | undefined;
  let command: string | undefined;
  if (testScript) {
    // As detectTestRunner runs it: the runner's step alone (checks chained with it would stop the chain before the
    // runner reports, and a Tester's lint error would pass for a failing test), with no package manager in the sandbox.
    const steps = testScriptCommand(testScript, pkg.scripts);
    runner = identifyRunner(steps.tests, dependencies);
    command = steps.command;
    if (steps.checks.length > 0)
      notes.push(
        `package.json's test script also runs ${steps.checks.map((c) => `\`${c}\``).join(', ')}: the session's test runs are \`${command}\` alone, so red and green come from the runner and a lint or type error is never taken for a failing test. To have every green state pass them too: ${steps.checks.map((c) => `--quality-gate ${shellWord(c)}`).join(' ')}.`,
      );
  } else {
    const byConfig: RunnerKind | undefined =
      hasConfig('vitest.config.') || (await viteHasTest())
        ? 'vitest'
        : hasConfig('jest.config.') || pkg.jest !== undefined
          ? 'jest'
          : hasConfig('.mocharc.') || pkg.mocha !== undefined
            ? 'mocha'
            : (['vitest', 'jest', 'mocha'] as const).find((k) => k in dependencies);
    if (byConfig) {
      runner = byConfig;
      command = { vitest: 'vitest run', jest: 'jest', mocha: 'mocha' }[byConfig];
      notes.push(
        `package.json has no test script${script ? " (only npm's placeholder)" : ''}: the tests run with '${command}' (${byConfig} is configured or a dependency).`,
      );
    }
  }
  const typescript = 'typescript' in dependencies || entries.includes('tsconfig.json');
  const patterns = runner
    ? ((await configuredPatterns(root, runner, pkg, configFiles, notes)) ?? RUNNER_DEFAULT_PATTERNS[runner])
    : undefined;
  return {
    typescript,
    packageManager,
    packageManagerFrom,
    testScript,
    dependencies,
    runner,
    command,
    patterns,
    configFiles: [
      ...configFiles.filter((f) => !f.startsWith('vite.config.') || runner === 'vitest'),
      ...(entries.includes('tsconfig.json') ? ['tsconfig.json'] : []),
      ...(lock ? [lock[0]] : []),
    ],
    notes,
  };
}
