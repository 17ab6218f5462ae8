#!/usr/bin/env bash
# Installs what ibench needs on a fresh Debian/Ubuntu machine: the C++ toolchain the judge
# compiles with, a system Python for judging Python solutions (the sandbox's own user cannot run
# an interpreter under a home directory, such as pyenv's), then the package itself with its test
# extras. Safe to re-run.
set -euo pipefail
missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
[ -x /usr/bin/python3 ] || [ -x /usr/local/bin/python3 ] || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq "${missing[@]}" >/dev/null; fi
fi
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[test]'
