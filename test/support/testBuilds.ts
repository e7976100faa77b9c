import { ensureCliBundle } from './cliBundle';
import { ensureExampleBundles } from './exampleBundles';

/** Mocha global fixture (`.mocharc.cjs`): both builds at once, in the main process, before the parallel workers start. */
export async function mochaGlobalSetup(): Promise<void> {
  await Promise.all([ensureCliBundle(), ensureExampleBundles()]);
}
