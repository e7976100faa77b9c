import { strict as assert } from 'node:assert';
import { scrubEnv } from '../../../src/core/process/scrubEnv';

describe('scrubEnv', () => {
  it('removes credential-like names and keeps the rest', () => {
    const env = scrubEnv({
      OPENAI_API_KEY: 'a',
      MY_SECRET: 'b',
      DB_PASSWORD: 'c',
      NPM_CONFIG__AUTH: 'd',
      HTTP_AUTHORIZATION: 'e',
      HOME: '/h',
      PATH: '/bin',
      GIT_AUTHOR_NAME: 'Ada',
    });
    assert.deepEqual(env, { HOME: '/h', PATH: '/bin', GIT_AUTHOR_NAME: 'Ada' });
  });
});
