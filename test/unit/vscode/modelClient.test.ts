import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cassettePath, createModelClient } from '../../../src/vscode/config/modelClient';
import { readSettings } from '../../../src/vscode/config/settings';

const REPO = path.resolve(__dirname, '../../..');
const DEMO = 'katas/cassettes/fizzbuzz-javascript.json';
const settings = (values: Record<string, unknown>) => readSettings((key) => values[key]);

describe('model client from the extension settings', () => {
  let workspace: string;
  before(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tdd-model-client-'));
  });
  after(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it('a relative cassette is looked up in the workspace, then in the extension folder', () => {
    assert.equal(cassettePath('/abs/c.json', workspace, REPO), '/abs/c.json');
    assert.equal(cassettePath(DEMO, workspace, REPO), path.join(REPO, DEMO));
    fs.mkdirSync(path.join(workspace, 'katas', 'cassettes'), { recursive: true });
    fs.copyFileSync(path.join(REPO, DEMO), path.join(workspace, DEMO));
    assert.equal(cassettePath(DEMO, workspace, REPO), path.join(workspace, DEMO));
    assert.equal(cassettePath('missing.json', workspace, REPO), path.join(workspace, 'missing.json'));
  });

  it('replay: plays the bundled demo cassette without any network', async function () {
    if (!fs.existsSync(path.join(REPO, DEMO))) this.skip();
    const client = await createModelClient(
      settings({ provider: 'replay', cassette: DEMO }),
      undefined,
      undefined,
      {},
      undefined,
      REPO,
    );
    assert.equal(client.provider, 'replay');
    assert.equal(client.llm.provider, 'replay');
    assert.match(client.source, /fizzbuzz-javascript\.json/);
  });

  it('replay without a cassette, or with a missing one, is a clear CONFIG error', async () => {
    await assert.rejects(
      createModelClient(settings({ provider: 'replay' }), undefined, workspace, {}),
      (e: any) => e.error_code === 'CONFIG' && /tddAgent\.cassette/.test(e.message),
    );
    await assert.rejects(
      createModelClient(settings({ provider: 'replay', cassette: 'nope.json' }), undefined, workspace, {}),
      (e: any) => e.error_code === 'CONFIG',
    );
  });

  it('openai at a configured base URL with a model needs no key and no probe', async () => {
    const client = await createModelClient(
      settings({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
      undefined,
      workspace,
      {},
    );
    assert.equal(client.provider, 'openai');
    assert.equal(client.model, 'm');
  });

  it('the official OpenAI endpoint without a key says how to set one, and never echoes a key', async () => {
    await assert.rejects(
      createModelClient(settings({ provider: 'openai' }), undefined, workspace, {}),
      (e: any) => e.error_code === 'PROVIDER_NOT_CONFIGURED' && /Set API key/.test(e.message),
    );
    const key = 'sk-secret-model-client-0123456789';
    const client = await createModelClient(settings({ provider: 'openai', model: 'gpt-4o-mini' }), key, workspace, {});
    assert.doesNotMatch(client.source, new RegExp(key));
  });
});
