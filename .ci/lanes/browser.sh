#!/usr/bin/env bash
# CI's browser lane: the results viewer driven in a real headless Chromium (Debian's chromium and
# chromium-driver from apt, selenium from PyPI; no browser download). IBENCH_BROWSER_LANE=require
# makes a browser that cannot start a test failure, never a skip.
# Usage: bash .ci/lanes/browser.sh   (from the repository root, as root or with sudo for apt)
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi
PY="${PY:-.venv/bin/python}"   # the install's environment (scripts/install.sh)
"$PY" -c "import selenium" 2>/dev/null || "$PY" -m pip install -q "selenium>=4.10"
chromium --version
export IBENCH_BROWSER_LANE=require
"$PY" -m pytest -q -m browser -p no:cacheprovider tests/pipeline/test_viewer.py "$@"
