/**
 * What a session still needs before it can start, for the panel's first-run card: a model to talk to (a provider the
 * settings, the stored API key, the environment or a running Ollama give; on a server of the person's own, a model it
 * serves) and an OS sandbox for the agents' code (unless the person turned it off). Each problem names the buttons
 * that fix it. No `vscode` import: the host calls it again whenever settings, the key or the window's focus change.
 */
import {
  describeDiagnosis,
  isAgentError,
  isOfficialOpenAI,
  probeSandbox,
  resolveProvider,
  type SandboxProbe,
  servedModels,
  type ServedModels,
} from '../../core';
import type { SetupProblem } from '../../shared/panelProtocol';
import type { ExtensionSettings } from './settings';

/** What the check reads; tests pass their own. */
export interface SetupInputs {
  settings: ExtensionSettings;
  apiKey: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Probe the sandbox again (after the person may have installed or configured it). */
  refreshSandbox?: boolean;
  /** Overrides of the probes (tests). */
  probe?: () => Promise<SandboxProbe>;
  served?: (settings: ExtensionSettings, apiKey: string | undefined) => Promise<ServedModels>;
}

/** The first-run card's text for "no provider". */
export const NO_MODEL_TITLE = 'No model is configured';
/** The first-run card's text for "no sandbox". */
export const NO_SANDBOX_TITLE = 'No OS sandbox works here';

async function modelProblem(inputs: SetupInputs): Promise<SetupProblem | undefined> {
  const { settings, apiKey } = inputs;
  const env = inputs.env ?? process.env;
  if (settings.provider === 'replay') return undefined; // the cassette is checked when a session starts
  let resolved;
  try {
    resolved = await resolveProvider(
      { provider: settings.provider, model: settings.model, baseURL: settings.baseUrl, apiKey, ollamaHost: settings.ollamaHost },
      env,
    );
  } catch (error) {
    if (isAgentError(error) && error.error_code === 'PROVIDER_NOT_CONFIGURED')
      return {
        item: 'model',
        title: NO_MODEL_TITLE,
        detail:
          'The agents need a model. Set an OpenAI API key, or choose an OpenAI-compatible server (vLLM, LM Studio, a proxy) by its base URL, or a running Ollama.',
        fixes: ['setApiKey', 'chooseProvider'],
      };
    return {
      item: 'model',
      title: 'The model settings are not usable',
      detail: error instanceof Error ? error.message : String(error),
      fixes: ['chooseProvider', 'openSettings'],
    };
  }
  // api.openai.com is not asked (its list is every model of the account, and no request leaves on every focus);
  // a server of the person's own is.
  if (resolved.provider === 'openai' && isOfficialOpenAI(resolved.baseURL)) return undefined;
  const served = await (
    inputs.served ??
    ((s, key) =>
      // Asked where the resolution points (a running Ollama found by `auto`, or the OpenAI-compatible server).
      servedModels(
        {
          provider: resolved.provider === 'ollama' ? 'ollama' : 'openai',
          baseURL: resolved.baseURL,
          apiKey: key,
          ollamaHost: s.ollamaHost,
        },
        env,
      ))
  )(settings, apiKey);
  if (served.official) return undefined;
  if (served.models.length === 0) {
    return {
      item: 'model',
      title: `The model server at ${served.server} does not answer`,
      detail: 'Start it, or choose another server or provider. Its models are listed once it answers.',
      fixes: ['chooseProvider'],
    };
  }
  if (!served.models.includes(resolved.model))
    return {
      item: 'model',
      title: `The model '${resolved.model}' is not served at ${served.server}`,
      detail: `It serves ${served.models.slice(0, 5).join(', ')}${served.models.length > 5 ? ', …' : ''}. Pick one of them.`,
      fixes: ['pickModel'],
    };
  return undefined;
}

async function sandboxProblem(inputs: SetupInputs): Promise<SetupProblem | undefined> {
  if (inputs.settings.sandbox === 'off') return undefined; // the person's explicit choice; the header says so
  const probe = await (inputs.probe ?? (() => probeSandbox({ refresh: inputs.refreshSandbox })))();
  if (probe.available) return undefined;
  return {
    item: 'sandbox',
    title: NO_SANDBOX_TITLE,
    detail: probe.diagnosis ? probe.diagnosis.cause : probe.reason,
    fixes: ['showSandboxFix', 'openSandboxSetting'],
  };
}

/** Everything missing, model first; empty when a session can start. */
export async function checkSetup(inputs: SetupInputs): Promise<SetupProblem[]> {
  const [model, sandbox] = await Promise.all([modelProblem(inputs), sandboxProblem(inputs)]);
  return [model, sandbox].filter((p): p is SetupProblem => p !== undefined);
}

/** The text "Show the fix" opens: the sandbox's diagnosis with the exact commands, or its reason. */
export async function sandboxFixText(refresh = true): Promise<string> {
  const probe = await probeSandbox({ refresh });
  if (probe.available) return `# The OS sandbox works\n\n${probe.reason}.\n`;
  const body = probe.diagnosis ? describeDiagnosis(probe.diagnosis) : probe.reason;
  return [
    '# Why no OS sandbox works here, and how to fix it',
    '',
    `What was tried: ${probe.reason}`,
    '',
    body,
    '',
    'After the fix, the TDD Agent panel notices it when the window gets focus. `tdd-agent doctor` checks the same from a terminal; docs/security.md has a section per platform.',
    '',
  ].join('\n');
}
