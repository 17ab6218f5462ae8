#!/usr/bin/env bash
# A real two-node Slurm cluster on this machine (Debian/Ubuntu, as root, no systemd needed):
# munged, slurmctld and two slurmd daemons (node1, node2: both this host, 127.0.0.1), each with
# CPUs=$IBENCH_SLURM_CPUS and one fake GPU; partitions `debug` (default) and `high` (preempts
# `debug` by requeueing its jobs). For trying ibench's Slurm path on a laptop or in CI.
#
#   slurm/local/cluster.sh install   # apt-get install slurmctld slurmd slurm-client munge (once)
#   slurm/local/cluster.sh start     # write the config, start the daemons, wait until both nodes are idle
#   slurm/local/cluster.sh status    # sinfo + the daemons' pids
#   slurm/local/cluster.sh stop      # stop exactly what `start` started (pid files), remove its /etc link
#   slurm/local/cluster.sh env       # the line to source: export SLURM_CONF=...
#   slurm/local/cluster.sh node-kill node2 / node-start node2   # a node failure (SIGKILL its slurmd), and back
#
# Everything lives in $IBENCH_SLURM_DIR (default /tmp/ibench-slurm): slurm.conf, gres.conf, state,
# spool, logs, pid files. /etc/slurm/slurm.conf is made a link to that slurm.conf when no other
# file is there (so plain `sinfo`/`sbatch` find it); otherwise `export SLURM_CONF=...` (`env`).
# A munged already answering on the default socket is used and left alone.
set -euo pipefail

DIR="${IBENCH_SLURM_DIR:-/tmp/ibench-slurm}"
CPUS="${IBENCH_SLURM_CPUS:-2}"          # per node (both nodes share this machine's cores)
MEM="${IBENCH_SLURM_MEM_MB:-2000}"      # per node, MB (nothing enforces it)
CTLD_PORT="${IBENCH_SLURM_CTLD_PORT:-6817}"
PORT1="${IBENCH_SLURM_NODE_PORT:-6818}"
PORT2=$((PORT1 + 1))
# Ports not given: where another Slurm (or anything) already listens on 6817-6819, the next free
# three are taken (each cluster's slurm.conf names its own, so sinfo/sbatch reach the right one).
PORTS_GIVEN="${IBENCH_SLURM_CTLD_PORT:-}${IBENCH_SLURM_NODE_PORT:-}"
WAIT_S="${IBENCH_SLURM_WAIT_S:-60}"
GRACE="${IBENCH_SLURM_GRACE_S:-30}"     # preemption grace: the batch shell gets its --signal, then this long
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONF="$DIR/slurm.conf"
ETC_CONF=/etc/slurm/slurm.conf
MUNGE_SOCKET=/run/munge/munge.socket.2
PKGS=(slurmctld slurmd slurm-client munge)

say() { echo "slurm-local: $*" >&2; }

install() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null &&
     command -v munged >/dev/null; then
    say "packages present (slurm $(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || echo ?))"
    return 0
  fi
  [ "$(id -u)" = 0 ] || { say "install needs root (apt-get)"; return 1; }
  command -v apt-get >/dev/null || { say "no apt-get: install ${PKGS[*]} yourself"; return 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || true
  apt-get install -y -qq --no-install-recommends "${PKGS[@]}" >/dev/null
  say "installed ${PKGS[*]} (slurm $(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || echo ?))"
}

munge_ok() { [ -S "$MUNGE_SOCKET" ] && munge -n -S "$MUNGE_SOCKET" 2>/dev/null | unmunge -S "$MUNGE_SOCKET" >/dev/null 2>&1; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_ports() {  # keep the configured ports when free; otherwise (not given) the next free three
  local base=$CTLD_PORT
  for _ in $(seq 50); do
    if ! listening "$base" && ! listening $((base + 1)) && ! listening $((base + 2)); then
      CTLD_PORT=$base; PORT1=$((base + 1)); PORT2=$((base + 2))
      return 0
    fi
    if [ -n "$PORTS_GIVEN" ]; then
      say "port $base, $((base + 1)) or $((base + 2)) is in use (another Slurm?): choose others with IBENCH_SLURM_CTLD_PORT/IBENCH_SLURM_NODE_PORT"
      return 1
    fi
    base=$((base + 10))
  done
  say "no three free ports from $CTLD_PORT on"; return 1
}

daemons_alive() {  # daemons_alive T0: every daemon this start launched still runs (a bind failure
  local f                 # ends one at once; its pid file may come a moment after it forks)
  for f in slurmctld slurmd-node1 slurmd-node2; do
    if [ -f "$DIR/run/$f.pid" ] && alive "$DIR/run/$f.pid"; then continue; fi
    if [ ! -f "$DIR/run/$f.pid" ] && [ $((SECONDS - $1)) -lt 10 ]; then continue; fi
    say "$f did not stay up; the end of its log:"
    tail -n 5 "$DIR/log/$f.log" >&2 2>/dev/null || true
    return 1
  done
}

write_conf() {
  mkdir -p "$DIR"/{state,spool,run,log}
  sed -e "s|@DIR@|$DIR|g" -e "s|@CPUS@|$CPUS|g" -e "s|@MEM@|$MEM|g" -e "s|@CTLD_PORT@|$CTLD_PORT|g" \
      -e "s|@PORT1@|$PORT1|g" -e "s|@PORT2@|$PORT2|g" -e "s|@GRACE@|$GRACE|g" "$here/slurm.conf.in" > "$CONF"
  cp "$here/gres.conf" "$DIR/gres.conf"
  if [ ! -e "$ETC_CONF" ] && [ ! -L "$ETC_CONF" ]; then
    mkdir -p /etc/slurm && ln -s "$CONF" "$ETC_CONF" && echo "$ETC_CONF" > "$DIR/run/etc-link"
  elif [ "$(readlink "$ETC_CONF" 2>/dev/null)" = "$CONF" ]; then
    echo "$ETC_CONF" > "$DIR/run/etc-link"
  else
    say "$ETC_CONF is someone else's: export SLURM_CONF=$CONF to use this cluster"
  fi
}

start() {
  local t0=$SECONDS
  [ "$(id -u)" = 0 ] || { say "start needs root (the daemons run as root)"; return 1; }
  command -v slurmctld >/dev/null || { say "slurmctld is not installed (run: $0 install)"; return 1; }
  if alive "$DIR/run/slurmctld.pid"; then say "already running (pid $(cat "$DIR/run/slurmctld.pid"))"; return 0; fi
  pick_ports || return 1
  [ "$CTLD_PORT" = 6817 ] || say "ports 6817-6819 are taken: this cluster listens on $CTLD_PORT-$PORT2"
  write_conf
  export SLURM_CONF="$CONF"
  # munge: the default socket (Slurm's auth/munge uses it); ours unless one already answers there.
  if ! munge_ok; then
    mkdir -p /run/munge /var/lib/munge /var/log/munge /etc/munge
    chmod 0755 /run/munge
    if [ ! -s /etc/munge/munge.key ]; then
      dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
      chmod 0400 /etc/munge/munge.key
    fi
    chown -R root:root /etc/munge /var/lib/munge /var/log/munge /run/munge 2>/dev/null || true
    munged --force --socket="$MUNGE_SOCKET" --pid-file="$DIR/run/munged.pid" \
           --log-file="$DIR/log/munged.log" --seed-file="$DIR/run/munged.seed"
    for _ in $(seq 50); do munge_ok && break; sleep 0.1; done
    munge_ok || { say "munged did not come up; see $DIR/log/munged.log"; return 1; }
  fi
  # -i: ignore state from an earlier run of this folder (a fresh cluster; job ids restart).
  rm -f "$DIR"/run/slurmctld.pid "$DIR"/run/slurmd-*.pid  # only this start's daemons are judged below
  slurmctld -i -f "$CONF"
  for n in node1 node2; do slurmd -f "$CONF" -N "$n"; done
  local deadline=$((SECONDS + WAIT_S)) states=""
  while [ $SECONDS -lt $deadline ]; do
    sleep 0.2
    daemons_alive "$t0" || return 1
    states="$(sinfo -h -N -o '%N %t' 2>/dev/null | sort -u | tr '\n' ' ')"
    # "idle" in sinfo is the controller's view and can come before a slurmd launches steps (CI once
    # saw the first job FAIL 7 s after an "up in 1s"): up means a two-node step has run.
    if [ "$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)" = 2 ] \
       && timeout 30 srun -N2 --ntasks-per-node=1 -t 1 -J ibench-smoke true >/dev/null 2>"$DIR/log/smoke.err"; then
      states="$(sinfo -h -N -o '%N %t' 2>/dev/null | sort -u | tr '\n' ' ')"
      say "up in $((SECONDS - t0))s: $states(a step ran on both nodes; SLURM_CONF=$CONF)"
      return 0
    fi
    sleep 0.5
  done
  say "nodes not idle within ${WAIT_S}s: ${states:-sinfo failed}; logs in $DIR/log"
  tail -n 20 "$DIR"/log/*.log >&2 || true
  return 1
}

stop_pid() {  # stop_pid FILE NAME: TERM, wait up to 15 s, then KILL; only the pid in FILE
  local f="$1" pid
  [ -f "$f" ] || return 0
  pid="$(cat "$f")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { say "$2 (pid $pid) ignored SIGTERM: SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; }
  fi
  rm -f "$f"
}

stop() {
  [ -d "$DIR/run" ] || { say "nothing to stop ($DIR/run absent)"; return 0; }
  # Jobs first, so slurmd's job steps end through Slurm (scancel of everything on this cluster).
  if alive "$DIR/run/slurmctld.pid"; then
    SLURM_CONF="$CONF" scancel --full --state=RUNNING,PENDING,SUSPENDED,REQUEUED --user=root 2>/dev/null || true
    SLURM_CONF="$CONF" scancel --full --user=root 2>/dev/null || true
    for _ in $(seq 50); do
      [ -z "$(SLURM_CONF="$CONF" squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  for n in node2 node1; do stop_pid "$DIR/run/slurmd-$n.pid" "slurmd $n"; done
  stop_pid "$DIR/run/slurmctld.pid" slurmctld
  stop_pid "$DIR/run/munged.pid" munged
  if [ -f "$DIR/run/etc-link" ] && [ "$(readlink "$ETC_CONF" 2>/dev/null)" = "$CONF" ]; then rm -f "$ETC_CONF"; fi
  rm -f "$DIR/run/etc-link"
  say "stopped"
}

status() {
  local any=0
  for f in "$DIR"/run/*.pid; do
    [ -f "$f" ] || continue
    any=1
    if alive "$f"; then echo "$(basename "$f" .pid): pid $(cat "$f")"; else echo "$(basename "$f" .pid): dead"; fi
  done
  [ $any = 1 ] || { echo "not running"; return 1; }
  SLURM_CONF="$CONF" sinfo -N
}

node_kill() {  # a node failure, for tests: SIGKILL its slurmd (its job steps run on; Slurm notices in ~SlurmdTimeout)
  local f="$DIR/run/slurmd-$1.pid"
  alive "$f" || { say "slurmd $1 is not running"; return 1; }
  kill -KILL "$(cat "$f")" && rm -f "$f" && say "killed slurmd $1"
}

node_start() {  # start one node's slurmd again (ReturnToService=2 puts a DOWN node back)
  alive "$DIR/run/slurmd-$1.pid" && { say "slurmd $1 already runs"; return 0; }
  slurmd -f "$CONF" -N "$1" && say "started slurmd $1"
}

case "${1:-}" in
  install) install ;;
  node-kill) node_kill "${2:?node name}" ;;
  node-start) node_start "${2:?node name}" ;;
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  status) status ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *) echo "usage: $0 install|start|stop|restart|status|env|node-kill NODE|node-start NODE" >&2; exit 2 ;;
esac
