#!/usr/bin/env bash
# CI's system-Python lane: README.md's first two commands, exactly as written there (read from the
# README's first ```bash block, never copied here), each in a fresh shell whose PATH holds only the
# system's directories and whose HOME is a fresh empty folder: the python3 found is Debian's own,
# which refuses `pip install` (PEP 668, EXTERNALLY-MANAGED), as on a stock Debian 12 / Ubuntu 24.04.
#
#   bash .ci/lanes/system_python.sh install   # README command 1: install, then the default launch
#   bash .ci/lanes/system_python.sh tests     # README command 2: the test suite (CI's main suite run)
#   bash .ci/lanes/system_python.sh           # both
#
# `install` first checks that the system python3 carries the marker and refuses pip (else the lane
# proves nothing and fails), and removes a .venv that another interpreter made (so the install
# is the system Python's). Either command failing fails the lane.
set -euo pipefail
cd "$(dirname "$0")/../.."
SYS_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# a python3 of someone's own under /usr/local/bin would be found first: leave that folder out
if [ -x /usr/local/bin/python3 ]; then SYS_PATH=/usr/sbin:/usr/bin:/sbin:/bin; fi
what="${1:-both}"

readme_command() {  # readme_command N: the N-th line of README.md's first ```bash block
  awk -v n="$1" '/^```bash$/ && !seen { inblock = 1; seen = 1; next }
                 inblock && /^```/ { exit }
                 inblock && NF { if (++i == n) { print; exit } }' README.md
}

# One fresh HOME for both commands when the caller gives one (IBENCH_CI_HOME, .ci/run): a new
# user runs command 2 on the machine where command 1 just ran, whose launch left the judge's
# compile cache (~/.cache/ibench) holding most bundled solutions. Otherwise a fresh one per call.
if [ -n "${IBENCH_CI_HOME:-}" ]; then
  fresh_home="$IBENCH_CI_HOME"
else
  fresh_home="$(mktemp -d /tmp/ibench-fresh-home.XXXXXX)"
  trap 'rm -rf "$fresh_home"' EXIT
fi
in_system_shell() {  # a login-free shell: only PATH, HOME, LANG, and TMPDIR when set
  env -i PATH="$SYS_PATH" HOME="$fresh_home" LANG=C.UTF-8 ${TMPDIR:+TMPDIR="$TMPDIR"} \
      bash --noprofile --norc -c "$1"
}

run_readme() {  # run_readme N LABEL
  local cmd t0 rc
  cmd="$(readme_command "$1")"
  [ -n "$cmd" ] || { echo "system-python lane: README.md has no command $1 in its first bash block" >&2; exit 1; }
  echo "system-python lane: README command $1 ($2), PATH=$SYS_PATH HOME=$fresh_home:"
  echo "system-python lane: \$ $cmd"
  t0=$(date +%s)
  set +e
  in_system_shell "$cmd"
  rc=$?
  set -e
  if [ $rc -ne 0 ]; then
    echo "system-python lane: FAILED - README command $1 ($2) exited $rc" >&2
    exit $rc
  fi
  echo "system-python lane: README command $1 ($2) passed in $(( $(date +%s) - t0 ))s"
}

check_system_python() {
  local py marker
  py="$(in_system_shell 'command -v python3' || true)"
  [ -n "$py" ] || { echo "system-python lane: FAILED - no python3 on $SYS_PATH" >&2; exit 1; }
  marker="$(in_system_shell 'python3 -c "import sysconfig; print(sysconfig.get_path(\"stdlib\"))"')/EXTERNALLY-MANAGED"
  if [ ! -f "$marker" ]; then
    echo "system-python lane: FAILED - $py has no PEP 668 marker ($marker): this lane would prove nothing" >&2
    exit 1
  fi
  if in_system_shell 'python3 -m pip install --dry-run --no-deps pytest' >/dev/null 2>&1; then
    echo "system-python lane: FAILED - $py accepts pip install despite $marker" >&2
    exit 1
  fi
  echo "system-python lane: python3 is $py ($(in_system_shell 'python3 --version')), marker $marker; pip install refused"
  # a .venv made by another interpreter (a pyenv python, say) would make the install a no-op
  if [ -x .venv/bin/python ]; then
    local base
    base="$(.venv/bin/python -c 'import sys; print(sys.base_prefix)' 2>/dev/null || echo '?')"
    if [ "$base" != "$(in_system_shell 'python3 -c "import sys; print(sys.base_prefix)"')" ]; then
      echo "system-python lane: removing .venv (made from $base, not the system python3)"
      rm -rf .venv
    fi
  fi
}

case "$what" in
  install) check_system_python; run_readme 1 "install + launch" ;;
  tests) run_readme 2 "tests" ;;
  both) check_system_python; run_readme 1 "install + launch"; run_readme 2 "tests" ;;
  *) echo "usage: $0 [install|tests]" >&2; exit 2 ;;
esac
