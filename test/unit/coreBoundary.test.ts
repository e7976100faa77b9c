import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { checkFolderImports, fileImports, findCycles, folderImports, type AllowedImports } from '../support/folderImports';

const CORE = join(__dirname, '..', '..', 'src', 'core');
const TDD = join(CORE, 'tdd');

/**
 * The allowed imports between the folders of src/core: each folder lists the folders it may import. Lower
 * layers first; the table must stay free of cycles (checked below), so a new cycle between folders fails the
 * build whether it is added to the code (not in the table) or to the table (a cycle in the table).
 * `src/core/index.ts`, the public barrel, may import anything.
 */
const ALLOWED_CORE_IMPORTS: AllowedImports = {
  // leaves
  async: [],
  vocabulary: [],
  security: [],
  logging: ['security'],
  errors: ['security', 'vocabulary'],
  batch: ['errors'],
  namedFiles: ['errors'],
  osSandbox: ['errors', 'logging', 'vocabulary'],
  process: ['async', 'osSandbox'],
  hostGit: ['process'],
  llm: ['async', 'errors', 'logging', 'security'],
  metrics: ['llm'],
  replay: ['errors', 'llm', 'namedFiles'],
  audit: ['errors', 'llm', 'logging', 'security'],
  testRunners: ['errors', 'logging', 'osSandbox', 'process', 'workspaceSandbox'],
  json: [],
  project: ['errors', 'hostGit', 'json', 'namedFiles', 'testRunners', 'vocabulary', 'workspaceSandbox'],
  // tools and their protocols
  control: ['async', 'logging', 'security', 'vocabulary'],
  workspaceSandbox: ['errors', 'namedFiles', 'vocabulary'],
  tools: [
    'async',
    'control',
    'errors',
    'hostGit',
    'llm',
    'logging',
    'osSandbox',
    'process',
    'workspaceSandbox',
    'security',
    'testRunners',
    'vocabulary',
  ],
  mcp: ['async', 'control', 'errors', 'llm', 'logging', 'security', 'tools', 'vocabulary'],
  // agents
  agentsAsData: ['errors', 'json', 'llm', 'namedFiles'],
  agentRuntime: ['agentsAsData', 'audit', 'batch', 'control', 'errors', 'json', 'llm', 'logging', 'metrics', 'tools'],
  builtinAgents: ['agentRuntime', 'tools'],
  // the TDD supervisor
  tdd: [
    'agentRuntime',
    'agentsAsData',
    'audit',
    'builtinAgents',
    'control',
    'errors',
    'hostGit',
    'json',
    'llm',
    'logging',
    'mcp',
    'namedFiles',
    'osSandbox',
    'process',
    'project',
    'workspaceSandbox',
    'security',
    'testRunners',
    'tools',
    'vocabulary',
  ],
  // evaluating a model on a set of katas
  eval: [
    'errors',
    'hostGit',
    'llm',
    'logging',
    'namedFiles',
    'osSandbox',
    'replay',
    'security',
    'workspaceSandbox',
    'tdd',
    'testRunners',
    'vocabulary',
  ],
};

/**
 * The allowed imports between the rooms (folders) of src/core/tdd, lower rooms first, by the same rules: no two
 * rooms import each other, and the table stays exact. The files directly in `tdd/` (`events.ts`,
 * `sessionVocabulary.ts`, `sessionSummary.ts`: what a session tells the outside) are words every room may use; they
 * import no room (checked below).
 */
const ALLOWED_TDD_IMPORTS: AllowedImports = {
  // what the session stands on: katas, git, what a role is shown, where tests may be written
  kata: [],
  git: [],
  context: [],
  scaffold: ['kata'],
  boundaries: ['git', 'kata'],
  // the session's record and its dependencies
  session: ['git', 'kata'],
  dependencies: ['git', 'kata', 'scaffold'],
  // the roles and the person's questions; judging a run; committing the tree
  roles: ['boundaries', 'context', 'git', 'session'],
  judging: ['boundaries', 'context', 'kata'],
  commits: ['git', 'session'],
  // the phases of a cycle, and the supervisor that runs a session of cycles
  phases: ['boundaries', 'commits', 'context', 'git', 'judging', 'kata', 'roles', 'session'],
  supervisor: ['commits', 'dependencies', 'git', 'judging', 'kata', 'phases', 'roles', 'scaffold', 'session'],
};

// The agent core must run without VS Code: no file under src/core imports 'vscode',
// and no file under src/core imports a higher layer (src/vscode, src/cli, webview).
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('core boundary', () => {
  const files = sourceFiles(CORE);

  it('finds the core sources', () => {
    assert.ok(files.length > 3, 'expected source files under src/core');
  });

  it('never imports vscode', () => {
    const offenders = files.filter((f) =>
      /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(readFileSync(f, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('never imports a higher layer', () => {
    const offenders = files.filter((f) =>
      /from\s+['"][./]*(\.\.\/)+(vscode|cli|extension)\b|from\s+['"].*webview/.test(readFileSync(f, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});

describe('core layering: the table of allowed imports between folders', () => {
  it('covers every folder, and every import between folders is in the table', () => {
    const graph = folderImports(CORE);
    assert.ok(graph.size > 15, `expected the core's folders, found ${[...graph.keys()].join(', ')}`);
    const check = checkFolderImports(graph, ALLOWED_CORE_IMPORTS);
    assert.deepEqual(check.unknownFolders, [], 'a new folder needs a row in ALLOWED_CORE_IMPORTS');
    assert.deepEqual(check.notAllowed, [], 'an import the table does not allow (add it to the table only if it makes no cycle)');
  });

  it('the table itself has no cycle', () => {
    assert.deepEqual(checkFolderImports(new Map(), ALLOWED_CORE_IMPORTS).cycles, []);
  });

  it('lists no import the code does not make (the table stays exact)', () => {
    const graph = folderImports(CORE);
    const unused = Object.entries(ALLOWED_CORE_IMPORTS).flatMap(([from, to]) =>
      to.filter((t) => !graph.get(from)?.has(t)).map((t) => `${from} -> ${t}`),
    );
    assert.deepEqual(unused, []);
  });

  it('the rooms of tdd/ import each other only as ALLOWED_TDD_IMPORTS says, and the table has no cycle', () => {
    const check = checkFolderImports(folderImports(TDD), ALLOWED_TDD_IMPORTS);
    assert.deepEqual(check.unknownFolders, [], 'a new room of tdd/ needs a row in ALLOWED_TDD_IMPORTS');
    assert.deepEqual(check.notAllowed, [], 'an import between rooms of tdd/ the table does not allow');
    assert.deepEqual(check.cycles, []);
    const graph = folderImports(TDD);
    const unused = Object.entries(ALLOWED_TDD_IMPORTS).flatMap(([from, to]) =>
      to.filter((t) => !graph.get(from)?.has(t)).map((t) => `${from} -> ${t}`),
    );
    assert.deepEqual(unused, [], 'the table lists no import the code does not make');
  });

  it("the files directly in tdd/ (the session's words) import no room of tdd/", () => {
    const intoRooms = [...fileImports(TDD)]
      .filter(([file]) => !file.includes(sep))
      .flatMap(([file, targets]) => targets.filter((t) => t.includes(sep)).map((t) => `${file} -> ${t}`));
    assert.deepEqual(intoRooms, []);
  });

  it('no file of src/core takes part in an import cycle', () => {
    assert.deepEqual(findCycles(fileImports(CORE)), []);
  });

  it('fails on a deliberately added cycle: in the code, in the table, and between files', () => {
    const root = mkdtempSync(join(tmpdir(), 'core-layers-'));
    try {
      for (const folder of ['tools', 'control']) mkdirSync(join(root, folder));
      writeFileSync(join(root, 'tools', 'types.ts'), "export type DangerLevel = 'SAFE';\n");
      writeFileSync(
        join(root, 'control', 'messages.ts'),
        "import type { DangerLevel } from '../tools/types';\nexport type Level = DangerLevel;\n",
      );
      const allowed = { tools: ['control'], control: [] };
      assert.deepEqual(checkFolderImports(folderImports(root), allowed).notAllowed, [
        'control -> tools (control/messages.ts -> ../tools/types)',
      ]);
      assert.deepEqual(checkFolderImports(folderImports(root), { tools: ['control'], control: ['tools'] }).cycles, [
        'control -> tools -> control',
      ]);
      writeFileSync(
        join(root, 'tools', 'types.ts'),
        "import type { Level } from '../control/messages';\nexport type DangerLevel = Level | 'SAFE';\n",
      );
      assert.deepEqual(findCycles(fileImports(root)), ['control/messages.ts -> tools/types.ts -> control/messages.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('an acyclic graph passes', () => {
    assert.deepEqual(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
      [],
    );
    assert.deepEqual(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
      ['a -> b -> c -> a'],
    );
  });
});
