import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { EVAL_FIXTURE_SET } from '../../support/evalPlayers';
import { cli, isolatedEnv } from '../cli/cliHarness';

const SET = resolve(__dirname, '..', '..', '..', EVAL_FIXTURE_SET);

describe('tdd-agent eval --list: the exercises --katas selects', () => {
  it('--katas by name or tag narrows the list, in text and in JSON', async () => {
    const json = await cli(['eval', '--set', SET, '--list', '--json', '--katas', 'strings'], isolatedEnv());
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), {
      set: SET,
      exercises: [{ slug: 'raindrops', title: 'Raindrops', tags: ['easy', 'strings'], languages: ['javascript', 'python'] }],
    });
    const text = await cli(['eval', '--set', SET, '--list', '--katas', 'leap'], isolatedEnv());
    assert.equal(text.code, 0, text.stderr);
    assert.deepEqual(
      text.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
      ['leap'],
    );
  });

  it('a selector that matches nothing is refused as a run would refuse it (exit 2, the names and tags)', async () => {
    const none = await cli(['eval', '--set', SET, '--list', '--katas', 'bowling'], isolatedEnv());
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No exercise of the eval set is named or tagged 'bowling'\. Names: leap, raindrops/);
  });

  it('--language, when given, keeps the exercises with acceptance tests in it', async () => {
    const all = await cli(['eval', '--set', SET, '--list', '--json', '--language', 'typescript'], isolatedEnv());
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      (JSON.parse(all.stdout) as { exercises: Array<{ slug: string }> }).exercises.map((e) => e.slug),
      ['leap', 'raindrops'],
      'TypeScript is judged by the JavaScript tests',
    );
    const bad = await cli(['eval', '--set', SET, '--list', '--language', 'cobol'], isolatedEnv());
    assert.equal(bad.code, 2);
  });
});
