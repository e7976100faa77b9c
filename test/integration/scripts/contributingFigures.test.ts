/** CONTRIBUTING.md says how many tests the suite has: the count `npm run figures` writes, checked against the suite. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { CONTRIBUTING, countTests, figureIn, testsFigure } from '../../../scripts/contributingFigures';

describe('CONTRIBUTING’s figures', function () {
  this.timeout(300_000);

  it('the number of tests per tier is the suite’s, as mocha lists them without running them', async () => {
    const written = figureIn(await readFile(CONTRIBUTING, 'utf8'), 'tests');
    assert.equal(written, testsFigure(await countTests()), 'run `npm run figures` and commit CONTRIBUTING.md');
  });
});
