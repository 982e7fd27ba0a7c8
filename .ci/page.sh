#!/usr/bin/env bash
# The settings page in a real browser (Specs/Page.md §7): Debian's chromium and chromium-driver,
# Selenium and axe-core (the engine bundled in axe-playwright-python) from PyPI, against a live
# readingprefs-server on an embedded database. Screenshots and timings go to
# Server/.build/page/.
#
#   .ci/page.sh            (after `swift build` of the CLI and of Server/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=Server/.build/page
rm -rf "$out"
mkdir -p "$out"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }
fi
python3 -m pip install --quiet --disable-pip-version-check selenium==4.38.0 axe-playwright-python==0.1.7
axe=$(python3 - <<'PY'
import glob, os, axe_playwright_python
found = glob.glob(os.path.join(os.path.dirname(axe_playwright_python.__file__), "**", "axe*.js"), recursive=True)
print(sorted(found, key=len)[0] if found else "")
PY
)
[ -n "$axe" ] || { echo "axe-core's script was not found in axe-playwright-python" >&2; exit 1; }

server=Server/.build/debug/readingprefs-server
cli=$(pwd)/.build/debug/readingprefs
data=$(mktemp -d)
first=$("$server" add-user page-reader --data-dir "$data" | awk '/^token /{print $2}')
other=$("$server" add-user page-other --data-dir "$data" | awk '/^token /{print $2}')
# shellcheck source=serve.sh
source .ci/serve.sh
serve "$out/server.log" --data-dir "$data" --fonts "Literata, OpenDyslexic"
stop() { kill "$pid" 2>/dev/null || true; rm -rf "$data"; }
trap stop EXIT

READINGPREFS_PAGE_URL=$url READINGPREFS_PAGE_TOKENS="$first $other" READINGPREFS_PAGE_OUT=$out \
    READINGPREFS_CLI=$cli READINGPREFS_AXE_JS=$axe READINGPREFS_CHROMIUM=$(command -v chromium) \
    READINGPREFS_CHROMEDRIVER=$(command -v chromedriver) \
    python3 Server/Tests/Page/test_page.py
