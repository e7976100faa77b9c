import assert from 'node:assert/strict';
import { figureIn, testsFigure, withFigure } from '../../../scripts/contributingFigures';

describe('scripts/contributingFigures: the figures between their markers', () => {
  const doc =
    'about <!-- figures:tests:start -->5 tests<!-- figures:tests:end --> (<!-- figures:time:start -->1 s<!-- figures:time:end -->)\n';

  it('replaces only the text between a pair of markers, and reads it back', () => {
    const counted = withFigure(doc, 'tests', testsFigure({ unit: 1000, integration: 843 }));
    assert.equal(
      counted,
      'about <!-- figures:tests:start -->1,843 tests (1,000 unit, 843 integration)<!-- figures:tests:end --> (<!-- figures:time:start -->1 s<!-- figures:time:end -->)\n',
    );
    assert.equal(figureIn(counted, 'time'), '1 s');
  });

  it('a document without the markers is an error naming them, and has no figure', () => {
    assert.throws(
      () => withFigure('no markers', 'tests', 'x'),
      /no <!-- figures:tests:start --> … <!-- figures:tests:end --> markers/,
    );
    assert.equal(figureIn('no markers', 'tests'), undefined);
  });
});
