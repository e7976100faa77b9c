/**
 * `activate()` does registrations only: commands and the panel's view provider, each forwarding to
 * the {@link ExtensionHost}, which is loaded on first use. esbuild wraps a required ES module in a lazy
 * initialiser, so the core (openai, zod, simple-git…) is not evaluated until a command runs or the
 * panel opens; built as its own bundle (`external: ['./extensionHost']` plus an entry for
 * `src/vscode/extensionHost.ts`), it is not even parsed before then. The time spent in `activate()` is measured, logged to the output
 * channel ("activated in X ms") and returned in the extension's API for tests.
 */
import * as vscode from 'vscode';
import { COMMANDS, OUTPUT_CHANNEL_NAME, PANEL_VIEW_ID } from './commands/commandIds';
import type { ExtensionHost } from './extensionHost';

/** What `activate()` returns (the extension's `exports`). */
export interface TddAgentApi {
  /** Milliseconds spent in `activate()`. */
  readonly activationMs: number;
  /** Loads (once) and returns the host; tests use it to wait until it is ready. */
  host(): Promise<ExtensionHost>;
}

let loaded: Promise<ExtensionHost> | undefined;

/** Registers everything; returns the API. */
export function activateExtension(context: vscode.ExtensionContext): TddAgentApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  context.subscriptions.push(log);

  const host = (): Promise<ExtensionHost> => {
    loaded ??= (async () => {
      const t0 = performance.now();
      // A plain require: bundled inline (lazily initialised) by default, or kept as `require("./extensionHost")`
      // when the build marks it external and emits dist/extensionHost.js, so the entry file stays a few KB.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { createExtensionHost } = require('./extensionHost') as typeof import('./extensionHost');
      const created = createExtensionHost(context, log);
      context.subscriptions.push(created);
      log.info(`host loaded in ${(performance.now() - t0).toFixed(1)} ms`);
      return created;
    })();
    return loaded;
  };
  const command = (id: string, run: (h: ExtensionHost, ...args: unknown[]) => unknown): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await run(await host(), ...args);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log.error(`${id} failed: ${message}`);
          void vscode.window.showErrorMessage(`TDD Agent: ${message}`);
          return undefined;
        }
      }),
    );
  };

  command(COMMANDS.runKata, (h, arg) => h.runKata(arg));
  command(COMMANDS.startTask, (h, arg) => h.runner.run({ task: typeof arg === 'string' && arg.trim() ? arg.trim() : true }));
  command(COMMANDS.stopKata, (h) => h.stopKata());
  command(COMMANDS.askSelection, (h, prompt) => h.ask('qa', prompt));
  command(COMMANDS.explainSelection, (h, prompt) => h.ask('cot', prompt));
  command(COMMANDS.setApiKey, (h) => h.setApiKey());
  command(COMMANDS.clearApiKey, (h) => h.clearApiKey());
  command(COMMANDS.openPanel, (h) => h.openPanel());
  command(COMMANDS.evaluateModel, (h) => h.evaluateModel());
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, {
      resolveWebviewView: async (view) => {
        try {
          (await host()).provider.resolveWebviewView(view);
        } catch (error) {
          log.error(`the panel could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
          throw error;
        }
      },
    }),
  );

  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(2)} ms`);
  return { activationMs, host };
}

/** Called by VS Code on shutdown; subscriptions (the host among them) are disposed by VS Code. */
export function deactivateExtension(): void {
  loaded = undefined;
}
