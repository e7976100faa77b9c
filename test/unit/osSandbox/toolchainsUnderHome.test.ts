import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolchainsUnderHome } from '../../../src/core/osSandbox/policyPaths';

describe('toolchainsUnderHome: what of a hidden HOME stays visible for PATH', () => {
  let home: string;
  beforeEach(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), 'sandbox-home-')));
    for (const dir of [
      '.pyenv/shims',
      '.pyenv/versions/3.11/bin',
      '.cargo/bin',
      '.local/bin',
      'tools/node-v20/bin',
      '.nvm/versions/node/v20/bin',
    ])
      await mkdir(join(home, dir), { recursive: true });
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('shows a version manager whole, a deep bin prefix, and only the entry itself otherwise', () => {
    const PATH = ['.pyenv/shims', '.cargo/bin', '.local/bin', 'tools/node-v20/bin', '.nvm/versions/node/v20/bin', 'missing/bin']
      .map((d) => join(home, d))
      .concat(['/usr/bin', home])
      .join(':');
    assert.deepEqual(
      toolchainsUnderHome({ PATH }, home).sort(),
      [
        join(home, '.cargo/bin'),
        join(home, '.local/bin'),
        join(home, '.nvm'),
        join(home, '.pyenv'),
        join(home, 'tools/node-v20'),
      ].sort(),
    );
  });

  it('never shows HOME itself or anything outside it', () => {
    assert.deepEqual(toolchainsUnderHome({ PATH: `${home}:/usr/local/bin:relative/bin` }, home), []);
  });
});
