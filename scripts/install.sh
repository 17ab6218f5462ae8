#!/usr/bin/env bash
# Installs what ibench needs on a fresh Debian/Ubuntu machine: the C++ toolchain the judge
# compiles with, then the package itself with its test extras. Safe to re-run.
set -euo pipefail
if ! command -v g++ >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq g++ >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq g++ >/dev/null; fi
fi
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[test]'
