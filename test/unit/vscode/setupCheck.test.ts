/**
 * The first-run card's content from the settings, the stored key and the probes: no provider, a server that does not
 * answer, a model it does not serve, no sandbox (with bubblewrap's diagnosis), and nothing once each is fixed.
 */
import assert from 'node:assert/strict';
import { diagnoseBubblewrap } from '../../../src/core/osSandbox/diagnoseSandbox';
import { checkSetup, NO_MODEL_TITLE, NO_SANDBOX_TITLE } from '../../../src/vscode/config/setupCheck';
import { readSettings } from '../../../src/vscode/config/settings';

const settings = (values: Record<string, unknown>) => readSettings((key) => values[key]);
const works = () => Promise.resolve({ available: true, kind: 'bubblewrap' as const, reason: 'bubblewrap works' });
const served =
  (models: string[], official = false) =>
  () =>
    Promise.resolve({ server: 'http://127.0.0.1:8000/v1', provider: 'openai' as const, models, official });
/** No key and no base URL in the environment. */
const NOTHING = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', OLLAMA_HOST: 'http://127.0.0.1:9' };

describe('the first-run card: what a session still needs', () => {
  it('no key for OpenAI: "No model is configured" with Set API key and Choose provider or base URL', async () => {
    // (`auto` would probe for an Ollama on the network; the e2e spec covers that path.)
    const problems = await checkSetup({
      settings: settings({ provider: 'openai' }),
      apiKey: undefined,
      env: NOTHING,
      probe: works,
    });
    assert.deepEqual(
      problems.map((p) => [p.item, p.title, p.fixes]),
      [['model', NO_MODEL_TITLE, ['setApiKey', 'chooseProvider']]],
    );
  });

  it('an API key for api.openai.com: nothing missing (its model list is not asked)', async () => {
    let asked = false;
    const problems = await checkSetup({
      settings: settings({}),
      apiKey: 'sk-test-123',
      env: NOTHING,
      probe: works,
      served: () => {
        asked = true;
        return served([], true)();
      },
    });
    assert.deepEqual(problems, []);
    assert.equal(asked, false);
  });

  it('a server of one’s own: not answering, or not serving the model (Pick a model), or fine', async () => {
    const own = settings({ provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm1' });
    const silent = await checkSetup({ settings: own, apiKey: undefined, env: NOTHING, probe: works, served: served([]) });
    assert.match(silent[0]!.title, /does not answer/);
    assert.deepEqual(silent[0]!.fixes, ['chooseProvider']);
    const other = await checkSetup({
      settings: own,
      apiKey: undefined,
      env: NOTHING,
      probe: works,
      served: served(['m2', 'm3']),
    });
    assert.equal(other[0]!.title, "The model 'm1' is not served at http://127.0.0.1:8000/v1");
    assert.match(other[0]!.detail, /It serves m2, m3\./);
    assert.deepEqual(other[0]!.fixes, ['pickModel']);
    assert.deepEqual(
      await checkSetup({ settings: own, apiKey: undefined, env: NOTHING, probe: works, served: served(['m1']) }),
      [],
    );
  });

  it('no sandbox: its diagnosis, Show the fix and Open sandbox setting; turned off: not asked for', async () => {
    const probe = () =>
      Promise.resolve({
        available: false,
        kind: 'bubblewrap' as const,
        reason: 'bubblewrap (/usr/bin/bwrap) cannot start a sandbox here: bwrap: setting up uid map: Permission denied',
        diagnosis: diagnoseBubblewrap('bwrap: setting up uid map: Permission denied', { apparmorRestrictUserns: '1' }),
      });
    const own = { provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm1' };
    const [sandbox] = await checkSetup({
      settings: settings(own),
      apiKey: undefined,
      env: NOTHING,
      probe,
      served: served(['m1']),
    });
    assert.equal(sandbox!.title, NO_SANDBOX_TITLE);
    assert.match(sandbox!.detail, /AppArmor restricts unprivileged user namespaces/);
    assert.deepEqual(sandbox!.fixes, ['showSandboxFix', 'openSandboxSetting']);
    const off = await checkSetup({
      settings: settings({ ...own, sandbox: 'off' }),
      apiKey: undefined,
      env: NOTHING,
      probe,
      served: served(['m1']),
    });
    assert.deepEqual(off, []);
  });
});
