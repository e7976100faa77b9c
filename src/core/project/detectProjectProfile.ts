import { resolve } from 'node:path';
import { identifyRunner } from '../testRunners/runnerKinds';
import { readGoProject, type GoProjectFacts } from './goProject';
import { readJavaProject, type JavaProjectFacts } from './javaProject';
import { readRustProject, type RustProjectFacts } from './rustProject';
import { readNodeProject, type NodeProjectFacts } from './nodeProject';
import { readPhpProject, type PhpProjectFacts } from './phpProject';
import { readRubyProject, type RubyProjectFacts } from './rubyProject';
import { normalizeFolder, readProjectConfig, PROJECT_CONFIG_FILE } from './projectConfigFile';
import { isProjectFolder, projectFiles } from './projectFiles';
import {
  PROFILE_FIELDS,
  type FieldSource,
  type ProfileField,
  type ProjectOverrides,
  type ProjectProfile,
  type ProjectSettings,
} from './projectProfile';
import { pythonEnvironment, readPythonProject, type PythonProjectFacts } from './pythonProject';
import { commonPatternFolder, DEFAULT_TEST_PATTERNS, matchesTestPattern } from './testFilePatterns';
import { type Language } from '../vocabulary';

/** Options of {@link resolveProjectProfile}. */
export interface ResolveProfileOptions {
  /** The environment (`VIRTUAL_ENV`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** What the kata's front matter names (weaker than `tdd-agent.json`, stronger than detection). */
  kata?: ProjectSettings;
  /** What a person gave for this session: flags, settings (strongest; a flag beats a setting). */
  overrides?: ProjectOverrides | ProjectOverrides[];
  /** Read `tdd-agent.json` (default true). */
  readConfigFile?: boolean;
}

/** Where code and tests go when nothing says: `src/` + `test/` (JavaScript, TypeScript), `src/` + `tests/` (Python). */
const DEFAULT_FOLDERS: Record<Language, { sourceDir: string; testDir: string }> = {
  javascript: { sourceDir: 'src', testDir: 'test' },
  typescript: { sourceDir: 'src', testDir: 'test' },
  python: { sourceDir: 'src', testDir: 'tests' },
  go: { sourceDir: '.', testDir: '.' },
  rust: { sourceDir: 'src', testDir: 'tests' },
  java: { sourceDir: 'src/main/java', testDir: 'src/test/java' },
  php: { sourceDir: 'src', testDir: 'tests' },
  ruby: { sourceDir: 'lib', testDir: 'spec' },
};

/** A path as a shell word: unchanged when it needs no quoting, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** True when folder `inner` is `outer` or inside it (`.` holds everything). */
function within(inner: string, outer: string): boolean {
  return outer === '.' || inner === outer || inner.startsWith(`${outer}/`);
}

/** True when tests in `testDir` sit beside the code of `sourceRoots` rather than in a folder of their own. */
export function testsBesideSource(testDir: string, sourceRoots: readonly string[]): boolean {
  if (testDir === '.') return true;
  return sourceRoots.some((s) => (s !== '.' && within(testDir, s)) || within(s, testDir));
}

/** One layer of values with its source, strongest first. */
interface Layer {
  source: FieldSource;
  values: ProjectSettings;
}

/**
 * The primary language of what was found: a JavaScript project with tests, else a Go module, else a Cargo crate, else a
 * Maven or Gradle build (Java), else a PHP project
 * (composer.json, phpunit.xml), else a Ruby project (Gemfile, gemspec, .rspec), else Python, else JavaScript.
 */
function detectedLanguage(
  node?: NodeProjectFacts,
  python?: PythonProjectFacts,
  go?: GoProjectFacts,
  php?: PhpProjectFacts,
  ruby?: RubyProjectFacts,
  rust?: RustProjectFacts,
  java?: JavaProjectFacts,
): Language | undefined {
  if (node && (node.command || (!python && !go && !rust && !java && !php && !ruby)))
    return node.typescript ? 'typescript' : 'javascript';
  if (go) return 'go';
  if (rust) return 'rust';
  if (java) return 'java';
  if (php) return 'php';
  if (ruby) return 'ruby';
  if (python) return 'python';
  return undefined;
}

/** The manifests found at the root, and the languages they are for, in the order of {@link detectedLanguage}'s checks. */
function foundManifests(found: {
  node?: NodeProjectFacts;
  python?: PythonProjectFacts;
  go?: GoProjectFacts;
  rust?: RustProjectFacts;
  java?: JavaProjectFacts;
  php?: PhpProjectFacts;
  ruby?: RubyProjectFacts;
}): { manifests: string[]; languages: Language[] } {
  const { node, python, go, rust, java, php, ruby } = found;
  const manifests = [
    ...(node ? ['package.json'] : []),
    ...(python?.manifests ?? []),
    ...(go ? ['go.mod'] : []),
    ...(rust ? ['Cargo.toml'] : []),
    ...(java?.manifests ?? []),
    ...(php?.manifests ?? []),
    ...(ruby?.manifests ?? []),
  ];
  const languages: Language[] = [
    ...(node ? [node.typescript ? 'typescript' : 'javascript'] : []),
    ...(python ? ['python'] : []),
    ...(go ? ['go'] : []),
    ...(rust ? ['rust'] : []),
    ...(java ? ['java'] : []),
    ...(php ? ['php'] : []),
    ...(ruby ? ['ruby'] : []),
  ] as Language[];
  return { manifests, languages };
}

/** True when a folder's own name says it holds tests (`tests`, `test`; with `dunder`, jest's `__tests__` too). */
function isTestFolder(folder: string, dunder = false): boolean {
  return (dunder ? /(^|\/)(tests?|__tests__)$/ : /(^|\/)tests?$/).test(folder);
}

/**
 * The home folder of a test file: the source root it sits in (for Python, the test folder inside it it lies in:
 * `h11/tests/test_io.py` → `h11/tests`, a subpackage of the tests' own), else its first folder, else the root.
 */
function testHome(path: string, sourceRoots: readonly string[], python: boolean): string {
  const root = sourceRoots.find((s) => s !== '.' && within(path, s));
  if (root && python) {
    const folders = path
      .slice(root.length + 1)
      .split('/')
      .slice(0, -1);
    const at = folders.findIndex((f) => isTestFolder(f));
    if (at >= 0) return `${root}/${folders.slice(0, at + 1).join('/')}`;
  }
  if (root) return root;
  // A test folder below the root's first folder is the tests' own (a monorepo's `packages/app/test`), not that folder.
  const folders = path.split('/').slice(0, -1);
  const at = folders.findIndex((f) => isTestFolder(f, true));
  if (at > 0) return folders.slice(0, at + 1).join('/');
  const slash = path.indexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

/** The most frequent value (the first one on a tie). */
function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, n] of counts) if (best === undefined || n > counts.get(best)!) best = v;
  return best;
}

/**
 * The project profile of `root`, from the repository only: manifests, lockfiles, runner configuration and where
 * test files already are (no `tdd-agent.json`, kata or flags: see {@link resolveProjectProfile}). A folder without a
 * manifest gets the defaults of a new project. A package.json that is not JSON is a CONFIG AgentError.
 */
export async function detectProjectProfile(root: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<ProjectProfile> {
  return resolveProjectProfile(root, { env: options.env, readConfigFile: false });
}

/**
 * The project profile of `root` with every source applied, strongest first: flag > setting > `tdd-agent.json` >
 * kata > detected > default. `fields` says where each value came from. A layer that names another language
 * than the one chosen contributes nothing else (its command and folders are for that other language).
 * `tdd-agent.json` that is invalid is a CONFIG AgentError naming the file and field.
 */
export async function resolveProjectProfile(root: string, options: ResolveProfileOptions = {}): Promise<ProjectProfile> {
  const absRoot = resolve(root);
  const env = options.env ?? process.env;
  const [node, python, go, config, ruby, php, rust, java] = await Promise.all([
    readNodeProject(absRoot),
    readPythonProject(absRoot, env),
    readGoProject(absRoot),
    options.readConfigFile === false ? Promise.resolve(undefined) : readProjectConfig(absRoot),
    readRubyProject(absRoot),
    readPhpProject(absRoot),
    readRustProject(absRoot),
    readJavaProject(absRoot, env),
  ]);

  const overrides = [options.overrides ?? []].flat();
  const layers: Layer[] = [
    ...overrides.filter((o) => (o.source ?? 'flag') === 'flag').map((values) => ({ source: 'flag' as const, values })),
    ...overrides.filter((o) => o.source === 'setting').map((values) => ({ source: 'setting' as const, values })),
    ...(config ? [{ source: 'tdd-agent.json' as const, values: config }] : []),
    ...(options.kata ? [{ source: 'kata' as const, values: options.kata }] : []),
  ];
  const fields = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, 'default'])) as Record<ProfileField, FieldSource>;
  const notes: string[] = [];

  // Language first: it decides which of the repository's facts and which layers' other fields apply.
  const languageLayer = layers.find((l) => l.values.language !== undefined);
  const detected = detectedLanguage(node, python, go, php, ruby, rust, java);
  const language: Language = languageLayer?.values.language ?? detected ?? 'javascript';
  fields.language = languageLayer?.source ?? (detected ? 'detected' : 'default');
  const applicable = layers.filter((l) => l.values.language === undefined || l.values.language === language);
  const pick = <K extends keyof ProjectSettings>(
    key: K,
  ): { value: NonNullable<ProjectSettings[K]>; source: FieldSource } | undefined => {
    const layer = applicable.find((l) => l.values[key] !== undefined);
    return layer ? { value: layer.values[key]!, source: layer.source } : undefined;
  };

  const jsLike = language === 'javascript' || language === 'typescript';
  const isGo = language === 'go';
  const nodeFacts = jsLike ? node : undefined;
  const pythonFacts = language === 'python' ? python : undefined;
  const goFacts = isGo ? go : undefined;
  const rustFacts = language === 'rust' ? rust : undefined;
  const javaFacts = language === 'java' ? java : undefined;
  const phpFacts = language === 'php' ? php : undefined;
  const rubyFacts = language === 'ruby' ? ruby : undefined;
  const { manifests, languages } = foundManifests({ node, python, go, rust, java, php, ruby });
  if (manifests.length > 0 && !languages.includes(language) && !(language === 'javascript' && languages.includes('typescript')))
    notes.push(
      `The session works in ${language}, but the repository's manifests (${manifests.join(', ')}) are for ${languages.join(' and ')}: check the test command.`,
    );

  const ctx: ProfileContext = {
    absRoot,
    language,
    jsLike,
    isGo,
    nodeFacts,
    pythonFacts,
    goFacts,
    rustFacts,
    javaFacts,
    phpFacts,
    rubyFacts,
    pick,
    fields,
    notes,
    manifests,
  };
  // Package manager or interpreter.
  const packageManager = jsLike ? (nodeFacts?.packageManager ?? 'npm') : undefined;
  fields.packageManager = nodeFacts?.packageManagerFrom ? 'detected' : 'default';
  const pythonEnv = language !== 'python' ? undefined : (pythonFacts?.python ?? (await pythonEnvironment(absRoot, env)));

  // Test command and runner.
  const testCommand = profileTestCommand(ctx, pythonEnv);
  const testRunner = identifyRunner(testCommand, nodeFacts?.dependencies ?? {});
  fields.testRunner = fields.testCommand;

  // Where the code is.
  const sourceRoots = await profileSourceRoots(ctx);

  // Which files are tests.
  const testFilePatterns = profileTestPatterns(ctx, sourceRoots);

  // Where new tests go: as given, else where the tests already are, else where the runner looks, else a test folder.
  const { testDir, testFolders, holdsPackages } = await profileTestDir(ctx, sourceRoots, testFilePatterns);
  // A Python package's `tests` subpackage (`h11/tests`) is a folder of the tests' own, though inside the code.
  const beside = holdsPackages || (!(language === 'python' && isTestFolder(testDir)) && testsBesideSource(testDir, sourceRoots));
  const explicitTestDir = fields.testDir !== 'detected' && fields.testDir !== 'default';
  const explicitPatterns = fields.testFilePatterns !== 'detected' && fields.testFilePatterns !== 'default';
  // A test folder of its own holds test support code too (helpers, fixtures): all of it counts as tests.
  const knownTestDir = explicitTestDir || fields.testDir === 'detected' || manifests.length === 0;
  if (!beside && knownTestDir && (explicitTestDir || !explicitPatterns) && !testFilePatterns.includes(`${testDir}/**`))
    testFilePatterns.push(`${testDir}/**`);
  if (!beside && fields.testDir === 'detected' && !explicitPatterns)
    for (const folder of testFolders) if (!testFilePatterns.includes(`${folder}/**`)) testFilePatterns.push(`${folder}/**`);

  const readFrom = [
    ...manifests,
    ...(nodeFacts?.configFiles ?? []),
    ...(pythonFacts?.pytestConfig && !manifests.includes(pythonFacts.pytestConfig) ? [pythonFacts.pytestConfig] : []),
    ...(config ? [PROJECT_CONFIG_FILE] : []),
  ];
  notes.push(...(nodeFacts?.notes ?? []), ...(pythonFacts?.notes ?? []), ...(phpFacts?.notes ?? []));
  return {
    root: absRoot,
    language,
    languages,
    ...(packageManager ? { packageManager } : {}),
    ...(pythonEnv ? { python: pythonEnv } : {}),
    testRunner,
    testCommand,
    testFilePatterns,
    sourceRoots,
    testDir,
    testsBesideSource: beside,
    manifests,
    readFrom: [...new Set(readFrom)],
    fields,
    notes,
  };
}

/** What the parts of {@link resolveProjectProfile} share: the chosen language, its facts, the layers, the bookkeeping. */
interface ProfileContext {
  absRoot: string;
  language: Language;
  jsLike: boolean;
  isGo: boolean;
  /** The repository's facts of the chosen language only. */
  nodeFacts: NodeProjectFacts | undefined;
  pythonFacts: PythonProjectFacts | undefined;
  goFacts: GoProjectFacts | undefined;
  rustFacts: RustProjectFacts | undefined;
  javaFacts: JavaProjectFacts | undefined;
  phpFacts: PhpProjectFacts | undefined;
  rubyFacts: RubyProjectFacts | undefined;
  /** The strongest layer's value of a setting, and which layer it came from. */
  pick: <K extends keyof ProjectSettings>(key: K) => { value: NonNullable<ProjectSettings[K]>; source: FieldSource } | undefined;
  fields: Record<ProfileField, FieldSource>;
  notes: string[];
  manifests: string[];
}

/** The test command: as given, else the project's (its runner's, its language's), else a new project's. */
function profileTestCommand(ctx: ProfileContext, pythonEnv: Awaited<ReturnType<typeof pythonEnvironment>> | undefined): string {
  const { language, isGo, nodeFacts, pythonFacts, goFacts, rustFacts, javaFacts, phpFacts, rubyFacts, pick, fields, notes } = ctx;
  const command = pick('testCommand');
  let testCommand: string;
  if (command) {
    testCommand = command.value;
    fields.testCommand = command.source;
  } else if (nodeFacts?.command) {
    testCommand = nodeFacts.command;
    fields.testCommand = 'detected';
  } else if (isGo) {
    testCommand = goFacts?.command ?? 'go test ./...';
    fields.testCommand = goFacts ? 'detected' : 'default';
  } else if (language === 'rust') {
    testCommand = rustFacts?.command ?? 'cargo test';
    fields.testCommand = rustFacts ? 'detected' : 'default';
  } else if (language === 'java') {
    testCommand = javaFacts?.command ?? 'mvn -o -B test';
    fields.testCommand = javaFacts ? 'detected' : 'default';
  } else if (language === 'ruby') {
    testCommand = rubyFacts?.command ?? 'rspec';
    fields.testCommand = rubyFacts ? 'detected' : 'default';
  } else if (language === 'php') {
    testCommand = phpFacts?.command ?? 'phpunit';
    fields.testCommand = phpFacts ? 'detected' : 'default';
  } else if (pythonEnv) {
    testCommand = `${shellWord(pythonEnv.interpreter)} -m pytest`;
    fields.testCommand = pythonFacts ? 'detected' : 'default';
  } else {
    const tsx = language === 'typescript' && nodeFacts && 'tsx' in nodeFacts.dependencies;
    testCommand = tsx ? 'tsx --test' : language === 'typescript' && !nodeFacts ? 'npm test' : 'node --test';
    if (nodeFacts)
      notes.push(
        `package.json names no test runner: the tests run with '${testCommand}'. Add a test script, or pass --test-command (or set testCommand in ${PROJECT_CONFIG_FILE}).`,
      );
  }
  return testCommand;
}

/** Where the code is: as given, else where the project's manifests and folders say, else a new project's folder. */
async function profileSourceRoots(ctx: ProfileContext): Promise<string[]> {
  const { absRoot, language, nodeFacts, pythonFacts, goFacts, javaFacts, phpFacts, rubyFacts, pick, fields } = ctx;
  const sourceDir = pick('sourceDir');
  let sourceRoots: string[];
  if (sourceDir) {
    sourceRoots = [normalizeFolder(sourceDir.value)];
    fields.sourceRoots = sourceDir.source;
  } else if (pythonFacts) {
    sourceRoots = pythonFacts.packages.length > 0 ? pythonFacts.packages : [pythonFacts.layout === 'src' ? 'src' : '.'];
    fields.sourceRoots = 'detected';
  } else if (nodeFacts) {
    sourceRoots = [(await isProjectFolder(absRoot, 'src')) ? 'src' : (await isProjectFolder(absRoot, 'lib')) ? 'lib' : '.'];
    fields.sourceRoots = 'detected';
  } else if (goFacts) {
    // A Go module's packages are its folders, from the root down.
    sourceRoots = ['.'];
    fields.sourceRoots = 'detected';
  } else if (javaFacts) {
    // Each module's `src/main/java` (or its POM's sourceDirectory).
    sourceRoots = javaFacts.sourceRoots;
    fields.sourceRoots = 'detected';
  } else if (phpFacts) {
    // composer.json's autoload folders, else `src/` when there is one.
    sourceRoots =
      phpFacts.sourceRoots.length > 0 ? phpFacts.sourceRoots : [(await isProjectFolder(absRoot, 'src')) ? 'src' : '.'];
    fields.sourceRoots = 'detected';
  } else if (rubyFacts) {
    sourceRoots = [rubyFacts.sourceRoot];
    fields.sourceRoots = 'detected';
  } else {
    sourceRoots = [DEFAULT_FOLDERS[language].sourceDir];
  }
  return sourceRoots;
}

/** Which files are tests: as given, else as the project's runner configuration says, else the language's patterns. */
function profileTestPatterns(ctx: ProfileContext, sourceRoots: readonly string[]): string[] {
  const { language, nodeFacts, pythonFacts, goFacts, rustFacts, javaFacts, phpFacts, rubyFacts, pick, fields } = ctx;
  const patternsGiven = pick('testFilePatterns');
  let testFilePatterns: string[];
  if (patternsGiven) {
    testFilePatterns = [...patternsGiven.value];
    fields.testFilePatterns = patternsGiven.source;
  } else if (nodeFacts?.patterns) {
    testFilePatterns = [...nodeFacts.patterns];
    fields.testFilePatterns = 'detected';
  } else if (pythonFacts?.testpaths) {
    // A testpath that holds the code (`src/pkg` for --doctest-modules, `src`, `.`) does not make the code tests: in it,
    // the test modules are (`python_files`); a folder of the tests' own (`tests`, `pkg/tests`) is tests all through.
    const modules = pythonFacts.pythonFiles ?? DEFAULT_TEST_PATTERNS.python;
    testFilePatterns = [
      ...new Set(
        pythonFacts.testpaths.flatMap((p) => (testsBesideSource(p, sourceRoots) && !isTestFolder(p) ? modules : [`${p}/**`])),
      ),
    ];
    fields.testFilePatterns = 'detected';
  } else if (pythonFacts?.pythonFiles) {
    testFilePatterns = [...pythonFacts.pythonFiles];
    fields.testFilePatterns = 'detected';
  } else if (goFacts) {
    testFilePatterns = [...goFacts.patterns];
    fields.testFilePatterns = 'detected';
  } else if (rustFacts) {
    testFilePatterns = [...rustFacts.patterns];
    fields.testFilePatterns = 'detected';
  } else if (javaFacts) {
    testFilePatterns = [...javaFacts.patterns];
    fields.testFilePatterns = 'detected';
  } else if (phpFacts) {
    testFilePatterns = [...phpFacts.patterns];
    fields.testFilePatterns = 'detected';
  } else if (rubyFacts) {
    testFilePatterns = [...rubyFacts.patterns];
    fields.testFilePatterns = 'detected';
  } else {
    testFilePatterns = [...DEFAULT_TEST_PATTERNS[language]];
  }
  return testFilePatterns;
}

/** Where new tests go: as given, else where the tests already are, else where the runner looks, else a test folder. */
async function profileTestDir(
  ctx: ProfileContext,
  sourceRoots: readonly string[],
  testFilePatterns: readonly string[],
): Promise<{ testDir: string; testFolders: string[]; holdsPackages: boolean }> {
  const {
    absRoot,
    language,
    jsLike,
    isGo,
    pythonFacts,
    goFacts,
    rustFacts,
    javaFacts,
    phpFacts,
    rubyFacts,
    pick,
    fields,
    manifests,
  } = ctx;
  const testDirGiven = pick('testDir');
  let testDir: string;
  let testFolders: string[] = [];
  let holdsPackages = false;
  if (testDirGiven) {
    testDir = normalizeFolder(testDirGiven.value);
    fields.testDir = testDirGiven.source;
  } else if (isGo) {
    // Go's tests are in the package they test: beside the code, wherever it is.
    testDir = '.';
    fields.testDir = goFacts ? 'detected' : 'default';
  } else if (rustFacts && !rustFacts.workspace) {
    // A crate's integration tests are in `tests/`; its unit tests in a module of the file they test.
    testDir = 'tests';
    fields.testDir = 'detected';
  } else if (javaFacts) {
    // Maven's (and Gradle's) convention, or the POM's testSourceDirectory: a folder of the tests' own.
    testDir = javaFacts.testDir;
    fields.testDir = 'detected';
  } else if (phpFacts?.testDir) {
    // PHPUnit's configuration (or composer.json's autoload-dev) says where the tests are.
    testDir = phpFacts.testDir;
    fields.testDir = 'detected';
  } else if (rubyFacts) {
    // RSpec's `spec/` or minitest's `test/`: a folder of the tests' own (its helpers are tests too).
    testDir = rubyFacts.testDir;
    fields.testDir = 'detected';
  } else {
    // The project's files, walked once: where its tests are, and whether a folder holds packages of their own.
    const files = manifests.length > 0 ? await projectFiles(absRoot) : [];
    let existing = files.filter((f) => matchesTestPattern(f, testFilePatterns));
    // pytest's testpaths count all of a folder (`docs/**`): its pages and images are not where the tests are. The test
    // modules pytest collects say where new ones go (semver's `testpaths = tests docs`).
    if (pythonFacts?.testpaths && testFilePatterns.some((p) => p.endsWith('/**') || p === '**')) {
      const modules = existing.filter((f) => matchesTestPattern(f, pythonFacts.pythonFiles ?? DEFAULT_TEST_PATTERNS.python));
      if (modules.length > 0) existing = modules;
    }
    const homes = existing.map((f) => testHome(f, sourceRoots, language === 'python'));
    const home = mostCommon(homes);
    // The test folders of the other packages of a monorepo are tests all through too, as the one chosen is.
    testFolders = [...new Set(homes.filter((h) => h !== home && h.includes('/') && isTestFolder(h, true)))];
    // A folder that holds packages of their own (`packages/app/package.json`) and is not named for tests is not a
    // folder of the tests': their tests sit beside each package's code (`packages/app/src/a.test.ts`).
    holdsPackages =
      home !== undefined &&
      home !== '.' &&
      !isTestFolder(home, true) &&
      files.some((f) => f.startsWith(`${home}/`) && f.endsWith('/package.json'));
    const folder = async (names: string[]): Promise<string | undefined> => {
      for (const name of names) if (await isProjectFolder(absRoot, name)) return name;
      return undefined;
    };
    const found =
      home ??
      pythonFacts?.testpaths?.[0] ??
      commonPatternFolder(testFilePatterns) ??
      (manifests.length > 0 ? await folder(jsLike ? ['test', 'tests', '__tests__'] : ['tests', 'test']) : undefined);
    testDir = found ?? DEFAULT_FOLDERS[language].testDir;
    fields.testDir = found !== undefined ? 'detected' : 'default';
  }
  return { testDir, testFolders, holdsPackages };
}
