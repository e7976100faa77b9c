/**
 * A stand-in for the `vscode` module with the few pieces of VS Code's testing API that `KataTests` uses (a test
 * controller, its run profile, test runs and items, locations, warnings), recording what the Testing view would show.
 * `installFakeVscode()` makes `require('vscode')` resolve to it; import the module under test after calling it
 * (`await import(…)`), since a static import is resolved before any code of the test file runs.
 */
import Module from 'node:module';

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

/** What the fake records: the controllers made, each run reported, the warnings shown. */
export const fakeVscode = {
  /** The run profiles' handlers, by label (a Run from the Testing view calls one). */
  profiles: new Map<string, RunHandler>(),
  /** The items the Testing view lists now. */
  items: [] as FakeTestItem[],
  /** Every test run reported, oldest first. */
  runs: [] as FakeTestRun[],
  warnings: [] as string[],
  reset(): void {
    this.profiles.clear();
    this.items = [];
    this.runs = [];
    this.warnings = [];
  },
};

const api = {
  TestRunProfileKind: { Run: 1, Debug: 2, Coverage: 3 },
  TestRunRequest: FakeTestRunRequest,
  TestMessage: FakeTestMessage,
  Location: FakeLocation,
  Range: FakeRange,
  Uri: FakeUri,
  window: {
    showWarningMessage: (message: string) => {
      fakeVscode.warnings.push(message);
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
