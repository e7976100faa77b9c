import { withoutCredentials } from '../osSandbox/sandboxEnvironment';

/**
 * Returns a copy of `env` without credential-like variables (see `CREDENTIAL_NAME`) and the product's own
 * provider keys: the environment of a child process that runs unconfined. A child process started by a tool or
 * a test run never sees them: generated code must not be able to read the API key. Sandboxed children get a
 * stricter allow-list instead (`sandboxEnvironment`).
 */
export function scrubEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return withoutCredentials(env);
}
