import assert from 'node:assert/strict';
import path from 'node:path';
import { listBundledKatas } from '../../../src/core/tdd/kata';
import { BUNDLED_KATA_ORDER, easiestFirst } from '../../../src/vscode/commands/kataOrder';

describe('kata picker order', () => {
  it('lists the bundled katas easiest first (FizzBuzz pre-selected, not the alphabetically first Bowling)', () => {
    const bundled = listBundledKatas(path.resolve(__dirname, '../../..'));
    assert.ok(bundled.length >= 5);
    const ordered = easiestFirst(bundled).map((k) => k.slug);
    assert.equal(ordered[0], 'fizzbuzz');
    assert.equal(ordered.at(-1), 'bowling');
    for (const kata of bundled) assert.ok(BUNDLED_KATA_ORDER.includes(kata.slug), `${kata.slug} has a place in the order`);
  });

  it('a kata not in the list goes after the known ones', () => {
    assert.deepEqual(
      easiestFirst([{ slug: 'zebra' }, { slug: 'bowling' }, { slug: 'alpha' }, { slug: 'fizzbuzz' }]).map((k) => k.slug),
      ['fizzbuzz', 'bowling', 'alpha', 'zebra'],
    );
  });
});
