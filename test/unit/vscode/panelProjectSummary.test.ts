/**
 * Issue 36 (4): the header's project line names every language the repository shows, the command each one's tests run
 * with in this session (or that this session does not run them, and why), which tests it leaves out and why — in words;
 * the raw test file patterns only behind a disclosure. The profile is read from a real folder with two manifests.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { ProjectProfile } from '../../../src/core/project/projectProfile';
import { emptyPanelState, parsePanelState, type PanelState } from '../../../src/shared/panelProtocol';
import { reducePanel } from '../../../src/vscode/panel/panelReducer';
import { testFilesInWords } from '../../../src/vscode/panel/reducer/projectSummary';
import { mixedProject, sessionStart } from './fixtures';

describe('panel reducer: the project line in words (issue 36)', () => {
  let root = '';
  let profile: ProjectProfile;
  before(async () => {
    ({ root, profile } = await mixedProject());
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  function header(...events: Parameters<typeof reducePanel>[1][]): PanelState {
    const state = [
      { type: 'supervisor' as const, event: sessionStart(), at: 1 },
      {
        type: 'supervisor' as const,
        event: { type: 'project_profile' as const, profile, scaffolded: false, task: false },
        at: 2,
      },
      ...events,
    ].reduce(reducePanel, emptyPanelState({ instanceId: 'h', trusted: true }));
    assert.ok(parsePanelState(state), 'a valid snapshot');
    return state;
  }

  it('names every language found, the command of the one this session runs, and why the other is not run', () => {
    assert.deepEqual(profile.languages, ['javascript', 'python'], 'the fixture: two manifests');
    const summary = header().session?.projectSummary;
    assert.ok(summary);
    assert.deepEqual(
      summary.languages.map((l) => [l.name, l.command, l.runner]),
      [
        ['JavaScript', 'node --test', 'node:test'],
        ['Python', undefined, undefined],
      ],
    );
    assert.match(summary.languages[1]!.notRun ?? '', /^not run: .*runs the JavaScript tests only$/);
    assert.doesNotMatch(summary.tests, /[{}*]{2}|\?\(|\[/, `no glob syntax in words: ${summary.tests}`);
    assert.match(summary.tests, /new tests go in test\/$/);
    assert.deepEqual(summary.patterns, profile.testFilePatterns, 'the raw patterns, for the disclosure');
    assert.equal(summary.source, profile.sourceRoots.map((f) => (f === '.' ? 'the root' : `${f}/`)).join(', '));
    assert.equal(summary.origin, 'from package.json, pyproject.toml, package-lock.json');
  });

  it('says which tests are left out and why: those that failed before the session', () => {
    const state = header({
      type: 'supervisor',
      event: { type: 'known_failures', cycle: 1, tests: ['test/leap.test.js › 1900 is not a leap year'] },
      at: 3,
    });
    assert.deepEqual(state.session?.projectSummary?.leftOut, [
      '1 test that already failed before the session is set aside: never blamed on a role, not needed for green (test/leap.test.js › 1900 is not a leap year)',
    ]);
  });

  it('says test file patterns in words', () => {
    assert.equal(
      testFilesInWords(['**/*.{test,spec}.?(c|m)js?(x)', '**/__tests__/**', 'test/**']),
      '*.test.js or *.spec.js files, and everything in __tests__ folders and test/',
    );
    assert.equal(testFilesInWords(['src/**/*.test.ts']), '*.test.ts files in src/');
    assert.equal(
      testFilesInWords(['tests/**', 'test_*.py', '*_test.py']),
      'test_*.py or *_test.py files, and everything in tests/',
    );
  });
});
