#!/usr/bin/env bash
# The browser of the console's tests (test/console, docs/console.md#tests): Debian's chromium, driven by
# playwright-core (Playwright's own browser download cannot reach its host here). Installed once; a
# machine that has it spends no time here. Another apt-get (scripts/galera.sh) may hold dpkg's lock:
# wait for it rather than fail.
set -euo pipefail
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
  echo "chromium: $("$chromium" --version 2>/dev/null || echo present) at $chromium"
  exit 0
fi
apt=(apt-get -o DPkg::Lock::Timeout=300 -y -q)
DEBIAN_FRONTEND=noninteractive "${apt[@]}" install chromium >/dev/null ||
  { "${apt[@]}" update >/dev/null && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install chromium >/dev/null; }
echo "chromium: installed $("$chromium" --version 2>/dev/null)"
