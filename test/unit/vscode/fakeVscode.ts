/**
 * A stand-in for the `vscode` module with the few pieces of VS Code's testing API that `KataTests` uses (a test
 * controller, its run profile, test runs and items, locations, warnings), recording what the Testing view would show;
 * and the configuration as VS Code resolves it in a trusted workspace (`workspace.getConfiguration`, `inspect`, the
 * workspace's folders), from the manifest's defaults and scopes and the user, workspace and folder values a test sets.
 * `installFakeVscode()` makes `require('vscode')` resolve to it; import the module under test after calling it
 * (`await import(…)`), since a static import is resolved before any code of the test file runs.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';

/** One test item as the Testing view lists it. */
export interface FakeTestItem {
  id: string;
  label: string;
  uri?: FakeUri;
  range?: FakeRange;
}

/** One test run as the Testing view shows it: its name and each item's result. */
export interface FakeTestRun {
  name: string;
  results: { id: string; outcome: 'passed' | 'failed' | 'skipped' | 'errored'; message?: string }[];
  output: string;
  ended: boolean;
}

class FakeUri {
  readonly scheme = 'file';
  private constructor(readonly fsPath: string) {}
  static file(fsPath: string): FakeUri {
    return new FakeUri(fsPath);
  }
}

class FakeRange {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

class FakeLocation {
  constructor(
    readonly uri: FakeUri,
    readonly range: FakeRange,
  ) {}
}

class FakeTestMessage {
  location: FakeLocation | undefined;
  constructor(readonly message: string) {}
}

class FakeTestRunRequest {}

type RunHandler = (
  request: FakeTestRunRequest,
  token: { onCancellationRequested(listener: () => void): { dispose(): void } },
) => Promise<void>;

/** Settings by their full key (`tddAgent.baseUrl`), one object per layer. */
export interface FakeSettingLayers {
  user: Record<string, unknown>;
  workspace: Record<string, unknown>;
  folder: Record<string, unknown>;
}

/** The manifest's `contributes.configuration.properties` (default, scope and type per key). */
const MANIFEST_SETTINGS = (
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string; type?: string }> } };
  }
).contributes.configuration.properties;

/** ConfigurationTarget's values. */
const CONFIGURATION_TARGET = { Global: 1, Workspace: 2, WorkspaceFolder: 3 } as const;

/** What the fake records: the controllers made, each run reported, the warnings shown. */
export const fakeVscode = {
  /** The settings of each layer; a test sets them as the person's settings.json and the workspace's would. */
  settings: { user: {}, workspace: {}, folder: {} } as FakeSettingLayers,
  /**
   * VS Code leaves a workspace's or folder's value of an `application`- or `machine`-scoped setting out when it reads
   * the settings files: not applied, not in `inspect()`. `false` plays a VS Code that does not (as once with a
   * workspace folder given, microsoft/vscode#103202), to show the extension does not depend on it.
   */
  honourScopes: true,
  /** The open workspace's folders (paths), and its `*.code-workspace` file when it has one. */
  workspaceFolders: [] as string[],
  workspaceFile: undefined as string | undefined,
  /** Commands run through `commands.executeCommand`, with their arguments. */
  commands: [] as unknown[][],
  /** The quick picks shown: their items' labels. */
  quickPicks: [] as string[][],
  /** The run profiles' handlers, by label (a Run from the Testing view calls one). */
  profiles: new Map<string, RunHandler>(),
  /** The items the Testing view lists now. */
  items: [] as FakeTestItem[],
  /** Every test run reported, oldest first. */
  runs: [] as FakeTestRun[],
  warnings: [] as string[],
  /** Information and error messages shown (a kata run's end, a refusal). */
  messages: [] as string[],
  reset(): void {
    this.profiles.clear();
    this.items = [];
    this.runs = [];
    this.warnings = [];
    this.messages = [];
    this.settings = { user: {}, workspace: {}, folder: {} };
    this.honourScopes = true;
    this.workspaceFolders = [];
    this.workspaceFile = undefined;
    this.commands = [];
    this.quickPicks = [];
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One setting's values per layer, as `inspect()` gives them. */
function inspectSetting(key: string) {
  const manifest = MANIFEST_SETTINGS[key];
  const userOnly = fakeVscode.honourScopes && (manifest?.scope === 'application' || manifest?.scope === 'machine');
  const { user, workspace, folder } = fakeVscode.settings;
  return {
    key,
    defaultValue: manifest?.default,
    globalValue: user[key],
    workspaceValue: userOnly ? undefined : workspace[key],
    workspaceFolderValue: userOnly ? undefined : folder[key],
  };
}

/** `WorkspaceConfiguration` of one section: `get` as VS Code resolves it (the last layer wins; objects merge key by key). */
function configuration(section: string) {
  const full = (key: string) => (section ? `${section}.${key}` : key);
  return {
    get: (key: string, fallback?: unknown): unknown => {
      const values = inspectSetting(full(key));
      const layers = [values.defaultValue, values.globalValue, values.workspaceValue, values.workspaceFolderValue];
      const set = layers.filter((value) => value !== undefined);
      if (set.length === 0) return fallback;
      if (set.every(isPlainObject)) return Object.assign({}, ...set) as unknown;
      return set[set.length - 1];
    },
    inspect: (key: string) => inspectSetting(full(key)),
    has: (key: string) => inspectSetting(full(key)).defaultValue !== undefined,
    update: (key: string, value: unknown, target: number = CONFIGURATION_TARGET.Workspace) => {
      const layer =
        target === CONFIGURATION_TARGET.Global ? 'user' : target === CONFIGURATION_TARGET.Workspace ? 'workspace' : 'folder';
      if (value === undefined) delete fakeVscode.settings[layer][full(key)];
      else fakeVscode.settings[layer][full(key)] = value;
      return Promise.resolve();
    },
  };
}

const api = {
  TestRunProfileKind: { Run: 1, Debug: 2, Coverage: 3 },
  TestRunRequest: FakeTestRunRequest,
  TestMessage: FakeTestMessage,
  Location: FakeLocation,
  Range: FakeRange,
  Uri: FakeUri,
  ConfigurationTarget: CONFIGURATION_TARGET,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  window: {
    /** No editor is open (a task then has no selection attached). */
    activeTextEditor: undefined,
    /** Runs the task at once with a progress that records nothing and a token that is never cancelled. */
    withProgress: <T>(
      _options: unknown,
      task: (
        progress: { report(value: unknown): void },
        token: { onCancellationRequested(listener: () => void): { dispose(): void } },
      ) => Promise<T>,
    ): Promise<T> => task({ report: () => undefined }, { onCancellationRequested: () => ({ dispose: () => undefined }) }),
    showInformationMessage: (message: string) => {
      fakeVscode.messages.push(message);
      return Promise.resolve(undefined);
    },
    showErrorMessage: (message: string) => {
      fakeVscode.messages.push(message);
      return Promise.resolve(undefined);
    },
    showWarningMessage: (message: string) => {
      fakeVscode.warnings.push(message);
      return Promise.resolve(undefined);
    },
    showQuickPick: (items: Array<{ label: string }>) => {
      fakeVscode.quickPicks.push(items.map((item) => item.label));
      return Promise.resolve(undefined);
    },
  },
  workspace: {
    /** Workspace trust: granted. */
    isTrusted: true,
    getConfiguration: (section = '') => configuration(section),
    get workspaceFolders() {
      return fakeVscode.workspaceFolders.length === 0
        ? undefined
        : fakeVscode.workspaceFolders.map((folder, index) => ({ uri: FakeUri.file(folder), name: path.basename(folder), index }));
    },
    get workspaceFile() {
      return fakeVscode.workspaceFile === undefined ? undefined : FakeUri.file(fakeVscode.workspaceFile);
    },
  },
  commands: {
    executeCommand: (...args: unknown[]) => {
      fakeVscode.commands.push(args);
      return Promise.resolve(undefined);
    },
  },
  tests: {
    createTestController: (_id: string, _label: string) => ({
      items: {
        replace: (items: FakeTestItem[]) => {
          fakeVscode.items = [...items];
        },
        forEach: (callback: (item: FakeTestItem) => void) => fakeVscode.items.forEach((item) => callback(item)),
      },
      createRunProfile: (label: string, _kind: number, handler: RunHandler) => {
        fakeVscode.profiles.set(label, handler);
        return { dispose: () => fakeVscode.profiles.delete(label) };
      },
      createTestItem: (id: string, label: string, uri?: FakeUri): FakeTestItem => ({ id, label, ...(uri ? { uri } : {}) }),
      createTestRun: (_request: FakeTestRunRequest, name: string) => {
        const run: FakeTestRun = { name, results: [], output: '', ended: false };
        fakeVscode.runs.push(run);
        const result = (outcome: FakeTestRun['results'][number]['outcome']) => (item: FakeTestItem, message?: FakeTestMessage) =>
          run.results.push({ id: item.id, outcome, ...(message ? { message: message.message } : {}) });
        return {
          passed: result('passed'),
          failed: result('failed'),
          skipped: result('skipped'),
          errored: result('errored'),
          appendOutput: (text: string) => {
            run.output += text;
          },
          end: () => {
            run.ended = true;
          },
        };
      },
      dispose: () => undefined,
    }),
  },
};

const FAKE_PATH = '\0fake-vscode';
let installed = false;

/** Makes `require('vscode')` (and `import … from 'vscode'`, compiled to it) give the fake. Idempotent. */
export function installFakeVscode(): void {
  if (installed) return;
  installed = true;
  type Resolve = (this: unknown, request: string, ...rest: unknown[]) => string;
  const loader = Module as unknown as { _resolveFilename: Resolve; _cache: Record<string, unknown> };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request, ...rest) {
    return request === 'vscode' ? FAKE_PATH : resolve.call(this, request, ...rest);
  };
  const module = new Module(FAKE_PATH);
  module.exports = api;
  module.loaded = true;
  loader._cache[FAKE_PATH] = module;
}
