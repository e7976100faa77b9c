/**
 * The environment for build tools a test starts (npm, tsc, esbuild): this process's, without c8's
 * NODE_V8_COVERAGE. Their coverage is not the project's, and collecting it made tsc half as slow again under
 * `npm test`.
 */
export function toolEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_V8_COVERAGE;
  return env;
}
