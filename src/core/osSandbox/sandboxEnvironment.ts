/**
 * Environment variable names that look like credentials. Unconfined children get the host's environment
 * without them (`scrubEnv`); a sandboxed child passes one only when the person named it exactly.
 * `AUTH` only as a whole word (`NPM_CONFIG__AUTH`), so `GIT_AUTHOR_NAME` is not one.
 */
export const CREDENTIAL_NAME =
  /(API[_-]?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE[_-]?KEY|AUTHORIZATION|(^|_)AUTH(_|$))/i;

/** The product's own provider credentials: never handed to a child process, whatever a list says. */
export const PRODUCT_CREDENTIALS: ReadonlySet<string> = new Set([
  'OPENAI_API_KEY',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'ANTHROPIC_API_KEY',
]);

/** True when a child process must not see the variable `name` unless a person named it exactly. */
export function isCredentialName(name: string): boolean {
  return PRODUCT_CREDENTIALS.has(name) || CREDENTIAL_NAME.test(name);
}

/** A copy of `env` without credential-like variables: what an unconfined child process gets. */
export function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isCredentialName(name)) continue;
    clean[name] = value;
  }
  return clean;
}

/**
 * Environment variable the person lists more variables in, comma-separated, for sandboxed processes:
 * exact names (`DATABASE_URL`) or prefixes ending in `*` (`MYAPP_*`). A credential-like name passes only
 * when listed exactly, never through a prefix; the product's own provider keys never pass.
 */
export const SANDBOX_ENV_VARIABLE = 'TDD_AGENT_SANDBOX_ENV';

/**
 * What every sandboxed process gets from the host's environment (when set there), and why:
 * - where programs are and who runs them: PATH, HOME (the hidden, empty one), USER, LOGNAME, SHELL, TMPDIR (rewritten
 *   to the private /tmp when the host's is not visible);
 * - locale, terminal and colours: LANG, LANGUAGE, `LC_*`, TERM, COLORTERM, NO_COLOR, FORCE_COLOR, TZ;
 * - what test runners read to behave non-interactively: CI, NODE_ENV;
 * - what a Python runner needs to start and find code: VIRTUAL_ENV, PYTHONPATH, PYTHONDONTWRITEBYTECODE,
 *   PYTHONUNBUFFERED, PYTHONIOENCODING, PYTHONUTF8, PYTHONHASHSEED, PYTEST_ADDOPTS, PYTEST_DISABLE_PLUGIN_AUTOLOAD
 *   (the test suite sets the last one for every run);
 * - where version managers keep their toolchains (their shims on PATH read them): PYENV_ROOT, PYENV_VERSION, NVM_DIR,
 *   NVM_BIN, NODENV_ROOT, NODENV_VERSION, VOLTA_HOME, ASDF_DIR, ASDF_DATA_DIR, CONDA_PREFIX, CONDA_DEFAULT_ENV;
 * - what the go command reads to find its toolchain, modules and caches, and to stay offline (a Go test run sets them,
 *   see `goOffline`): GOROOT, GOPATH, GOMODCACHE, GOCACHE, GOFLAGS, GOPROXY, GOTOOLCHAIN, GOSUMDB, GONOSUMDB,
 *   GOPRIVATE, GONOPROXY, GOWORK, GOTMPDIR, CGO_ENABLED;
 * - what cargo and rustup read to find the toolchain and the crates, build where the session says and stay offline (a
 *   Rust test run sets them, see `cargoOffline`): CARGO_HOME, RUSTUP_HOME, RUSTUP_TOOLCHAIN, CARGO_TARGET_DIR,
 *   CARGO_NET_OFFLINE, CARGO_TERM_COLOR, CARGO_INCREMENTAL, RUST_BACKTRACE, RUSTFLAGS (never a registry token, nor
 *   RUSTC_WRAPPER: a program of the host's);
 * - where ruby finds the gems the tests need (a session runs `rspec` directly, offline: see `readRubyProject`): GEM_HOME,
 *   GEM_PATH, RUBYLIB, RBENV_ROOT, RBENV_VERSION, BUNDLE_GEMFILE, BUNDLE_PATH (never RUBYOPT: a `-r` of the host's);
 * - what mvn reads to find the JDK and itself: JAVA_HOME, MAVEN_HOME, M2_HOME; and MAVEN_OPTS only as a Maven test run
 *   sets it (`-Dmaven.repo.local=<path>`, see `mavenOffline`): a host's own may name a proxy and its password.
 *
 * Left out on purpose: NODE_OPTIONS (a `--require` or loader of the host's, often under the hidden HOME; the test
 * runner drops it too), NODE_EXTRA_CA_CERTS and other certificate and proxy settings (no network inside), and every
 * other variable (`DATABASE_URL`, `AWS_*`, `SENTRY_DSN`, ...): the person names those in {@link SANDBOX_ENV_VARIABLE}.
 */
export const SANDBOX_BASE_ENVIRONMENT: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'TZ',
  'CI',
  'NODE_ENV',
  'VIRTUAL_ENV',
  'PYTHONPATH',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONUNBUFFERED',
  'PYTHONIOENCODING',
  'PYTHONUTF8',
  'PYTHONHASHSEED',
  'PYTEST_ADDOPTS',
  'PYTEST_DISABLE_PLUGIN_AUTOLOAD',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'NVM_DIR',
  'NVM_BIN',
  'NODENV_ROOT',
  'NODENV_VERSION',
  'VOLTA_HOME',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'GOROOT',
  'GOPATH',
  'GOMODCACHE',
  'GOCACHE',
  'GOFLAGS',
  'GOPROXY',
  'GOTOOLCHAIN',
  'GOSUMDB',
  'GONOSUMDB',
  'GOPRIVATE',
  'GONOPROXY',
  'GOWORK',
  'GOTMPDIR',
  'CGO_ENABLED',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'CARGO_TARGET_DIR',
  'CARGO_NET_OFFLINE',
  'CARGO_TERM_COLOR',
  'CARGO_INCREMENTAL',
  'RUST_BACKTRACE',
  'RUSTFLAGS',
  'GEM_HOME',
  'GEM_PATH',
  'RUBYLIB',
  'RBENV_ROOT',
  'RBENV_VERSION',
  'BUNDLE_GEMFILE',
  'BUNDLE_PATH',
  'JAVA_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'MAVEN_OPTS',
];

/** The only MAVEN_OPTS a sandboxed process gets: the local repository a Maven test run names (see `mavenOffline`). */
const SANDBOX_MAVEN_OPTS = /^(?:-Dmaven\.repo\.local=\S+)?$/;

/**
 * Added when the sandbox has the network (the confined `npm install`): proxies and the certificates a
 * TLS-inspecting proxy needs. A proxy URL may hold the person's proxy password; only the package manager
 * runs with the network, never generated code.
 */
export const SANDBOX_NETWORK_ENVIRONMENT: readonly string[] = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

/** The names in a comma-separated list (`TDD_AGENT_SANDBOX_ENV`), trimmed, empty entries dropped. */
export function parseEnvironmentList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Whether `name` is allowed by `entry`: equal, or starting with the prefix of an entry ending in `*`. */
function matches(entry: string, name: string): 'exact' | 'prefix' | undefined {
  if (entry === name) return 'exact';
  if (entry.endsWith('*') && name.startsWith(entry.slice(0, -1))) return 'prefix';
  return undefined;
}

/**
 * The environment a sandboxed process starts with: only the variables of {@link SANDBOX_BASE_ENVIRONMENT}
 * (and {@link SANDBOX_NETWORK_ENVIRONMENT} when `network`), plus those named in `extra` (exact names or `PREFIX*`),
 * taken from `env`. A credential-like name passes only when an entry names it exactly (a prefix never lets one
 * through); the product's own provider keys never pass.
 */
export function sandboxEnvironment(
  env: NodeJS.ProcessEnv,
  options: { extra?: readonly string[]; network?: boolean } = {},
): NodeJS.ProcessEnv {
  const base = options.network ? [...SANDBOX_BASE_ENVIRONMENT, ...SANDBOX_NETWORK_ENVIRONMENT] : SANDBOX_BASE_ENVIRONMENT;
  const extra = options.extra ?? [];
  const inside: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || PRODUCT_CREDENTIALS.has(name)) continue;
    const how = [...base, ...extra].map((entry) => matches(entry, name)).filter(Boolean);
    if (how.length === 0) continue;
    if (CREDENTIAL_NAME.test(name) && !how.includes('exact')) continue;
    if (name === 'MAVEN_OPTS' && !extra.includes(name) && !SANDBOX_MAVEN_OPTS.test(value)) continue;
    inside[name] = value;
  }
  return inside;
}
