#!/usr/bin/env bash
# CI's Slurm lane: a real two-node Slurm cluster on this machine (slurm/local/cluster.sh: Debian's
# slurmctld slurmd slurm-client munge, two slurmd daemons), then the tests marked slurm_real
# (tests/cluster/test_slurm_real.py: sbatch of slurm/ibench.sbatch on two nodes, the submitit
# sweep, scancel + resubmit, the time limit + requeue, preemption, the cluster tests inside an
# allocation; tests/cluster/test_slurm_gpu_recipe.py: the GPU recipe as a GPU site runs it, with
# --gpus-per-node=0 and --cpus-per-task, the container script without a container, and the
# preflight's refusals through sbatch), then the cluster is stopped (only what the script started,
# by pid file). Python: .venv/bin/python (scripts/install.sh), or $PY.
#
#   bash .ci/lanes/slurm.sh                      # from the repository root
#   IBENCH_SLURM_LANE=require bash .ci/lanes/slurm.sh   # a cluster that cannot come up fails CI
#   IBENCH_SLURM_LANE=skip   bash .ci/lanes/slurm.sh    # skip the lane
#
# A cluster that cannot be installed or started (no apt, no root, no network) is reported loudly
# and the lane is skipped (exit 0) unless IBENCH_SLURM_LANE=require (exit 1). A failing test always
# fails the lane. The cluster lives in $IBENCH_SLURM_DIR (default here /tmp/ibench-slurm-ci) on
# Slurm's usual ports (6817-6819): another Slurm on this machine makes the start fail (SKIPPED).
set -uo pipefail
cd "$(dirname "$0")/../.."
lane="${IBENCH_SLURM_LANE:-auto}"
if [ "$lane" = skip ]; then
  echo "slurm lane: skipped (IBENCH_SLURM_LANE=skip)"
  exit 0
fi
export WANDB_MODE=offline
export IBENCH_SLURM_DIR="${IBENCH_SLURM_DIR:-/tmp/ibench-slurm-ci}"
CLUSTER=slurm/local/cluster.sh
t0=$(date +%s)
cannot() {
  if [ "$lane" = require ]; then
    echo "slurm lane: FAILED - $1 (IBENCH_SLURM_LANE=require)" >&2
    exit 1
  fi
  echo "slurm lane: SKIPPED - $1; tests marked slurm_real did not run. IBENCH_SLURM_LANE=require makes this a failure." >&2
  exit 0
}
bash "$CLUSTER" install || cannot "the Slurm packages could not be installed (see above)"
t_install=$(( $(date +%s) - t0 ))
if ! bash "$CLUSTER" start; then
  bash "$CLUSTER" stop || true
  cannot "the local Slurm cluster did not start (logs in $IBENCH_SLURM_DIR/log)"
fi
trap 'bash "$CLUSTER" stop' EXIT
export SLURM_CONF="$IBENCH_SLURM_DIR/slurm.conf"
t_up=$(( $(date +%s) - t0 ))
echo "slurm lane: installed in ${t_install}s, cluster up in $(( t_up - t_install ))s (install + start ${t_up}s)"
figures="$(mktemp /tmp/ibench-slurm-figures.XXXXXX)"
t1=$(date +%s)
IBENCH_SLURM_REAL=require IBENCH_SLURM_FIGURES="$figures" "${PY:-.venv/bin/python}" -m pytest -q -m slurm_real \
  -p no:cacheprovider -rs tests/cluster/test_slurm_real.py tests/cluster/test_slurm_gpu_recipe.py
rc=$?
t_tests=$(( $(date +%s) - t1 ))
while IFS= read -r line; do echo "slurm lane: figure $line"; done < "$figures"
rm -f "$figures"
echo "slurm lane: install + start ${t_up}s, tests ${t_tests}s (pytest exit ${rc})"
if [ $rc -ne 0 ]; then
  echo "slurm lane: FAILED (the slurm_real tests)" >&2
  exit $rc
fi
exit 0
