/**
 * Environment variables whose names look like credentials. A child process started by a
 * tool or a test run never sees them: generated code must not be able to read the API key.
 */
// `AUTH` only as a whole word (`NPM_CONFIG__AUTH`), so `GIT_AUTHOR_NAME` is kept.
const SECRET_NAME = /(API[_-]?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE[_-]?KEY|AUTHORIZATION|(^|_)AUTH(_|$))/i;
const ALWAYS_REMOVED = new Set(['OPENAI_API_KEY', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID', 'ANTHROPIC_API_KEY']);

/** Returns a copy of `env` without credential-like variables. */
export function scrubEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || ALWAYS_REMOVED.has(name) || SECRET_NAME.test(name)) continue;
    clean[name] = value;
  }
  return clean;
}
