import { strict as assert } from 'node:assert';
import { PYTHON_KATAS, pythonKataCycles } from '../../support/pythonKataPlans';
import { assertThreeGreenCyclesThenComplete, fileOnBranch, SessionHarness } from './sessionHarness';

// Every bundled kata (FizzBuzz has its own happy path) played in Python by the scripted model, with real
// pytest runs in the sandbox: the scaffold and the kata agree, so each session runs green to the end.
describe('TDD supervisor: each bundled kata in Python runs green', function () {
  this.timeout(180_000);
  const h = new SessionHarness();
  beforeEach(() => h.setUp());
  afterEach(() => h.cleanup());

  for (const kata of PYTHON_KATAS) {
    it(kata.slug, async () => {
      const { summary } = await h.run({ cycles: pythonKataCycles(kata) }, { kataPath: kata.slug, language: 'python' });
      assertThreeGreenCyclesThenComplete(summary);
      assert.equal(await fileOnBranch(h.workspace, summary.branch, `src/${kata.module}.py`), kata.steps.at(-1)!.impl);
    });
  }
});
