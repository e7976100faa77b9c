/** The clean npm configuration and environment an install runs with: how to reach the registry, nothing else of the person's or the project's. */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/** npm settings that say how to reach a registry (never credentials), carried from the person's own npm configuration. */
const NETWORK_KEY = /^(registry|@[^:\s]+:registry|cafile|strict-ssl|proxy|https-proxy|noproxy)$/;

/** The network settings of an npmrc file (`key=value` lines), without values that expand variables. */
function networkSettings(text: string): [string, string][] {
  const settings: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([^=;#\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || !NETWORK_KEY.test(m[1]!) || m[2]!.includes('${')) continue;
    settings.push([m[1]!, m[2]!.replace(/^"(.*)"$/, '$1')]);
  }
  return settings;
}

/**
 * The clean npm configuration the install runs with: only how to reach the registry (registry, scoped registries,
 * proxies, `cafile`, `strict-ssl`) from the person's global and user npmrc and `npm_config_*` variables, later ones
 * winning as in npm. No tokens, no `git`, no `script-shell`, nothing from the project. Returns the file's lines and
 * the CA files it names (made readable in the sandbox).
 */
export async function cleanNpmConfig(env: NodeJS.ProcessEnv): Promise<{ text: string; caFiles: string[] }> {
  const globalFile =
    env.npm_config_globalconfig ?? join(env.npm_config_prefix ?? dirname(dirname(process.execPath)), 'etc', 'npmrc');
  const userFile = env.npm_config_userconfig ?? join(env.HOME || homedir(), '.npmrc');
  const settings = new Map<string, string>();
  for (const file of [globalFile, userFile]) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const [key, value] of networkSettings(text)) settings.set(key, value);
  }
  for (const [name, value] of Object.entries(env)) {
    const key = /^npm_config_(.+)$/i.exec(name)?.[1]?.toLowerCase().replace(/_/g, '-');
    if (key && value !== undefined && NETWORK_KEY.test(key) && !value.includes('${')) settings.set(key, value);
  }
  const caFiles = [settings.get('cafile'), env.NODE_EXTRA_CA_CERTS].filter((f): f is string => !!f && isAbsolute(f));
  return { text: [...settings].map(([k, v]) => `${k}=${v}\n`).join(''), caFiles };
}

/** The install's environment: this process's without any `npm_config_*` variable, then the clean configuration's. */
export function installEnvironment(configFile: string, cacheDir: string): { env: NodeJS.ProcessEnv; names: string[] } {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_config_/i.test(name)) env[name] = value;
  const npmConfig: Record<string, string> = {
    npm_config_userconfig: '/dev/null',
    npm_config_globalconfig: configFile,
    npm_config_cache: cacheDir,
    npm_config_ignore_scripts: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  return { env: { ...env, ...npmConfig }, names: Object.keys(npmConfig) };
}
