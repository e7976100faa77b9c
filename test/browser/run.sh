#!/usr/bin/env bash
# Runs the panel's Chromium tests. Needs Debian's chromium (`apt-get install -y chromium`, as root)
# at /usr/bin/chromium, or CHROMIUM_PATH pointing at another Chromium build.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "chromium not found at ${CHROMIUM_PATH:-/usr/bin/chromium}; install it with: apt-get update && apt-get install -y chromium" >&2
  exit 2
fi
exec npx mocha --no-config --node-option import=tsx --extension ts --timeout 60000 --exit 'test/browser/**/*.browser.ts' "$@"
