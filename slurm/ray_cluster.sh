#!/usr/bin/env bash
# Ray over a node list: head on the first node, a worker on each other one, then a driver.
# A thin wrapper around `python -m ibench.cluster.bringup` (.venv/bin/python, else python3) (all logic lives there, testable
# without Slurm). Node list: --nodes, else $IBENCH_NODES, else $SLURM_JOB_NODELIST
# (`scontrol show hostnames`). Launcher: srun inside a Slurm job, else local processes.
#
#   slurm/ray_cluster.sh run  --job-dir DIR -- python -m ibench.launch cluster=slurm model=qwen3-32b
#   slurm/ray_cluster.sh up   --job-dir DIR      # then: source DIR/cluster.env; python -m ibench.launch cluster=slurm
#   slurm/ray_cluster.sh down --job-dir DIR
#   IBENCH_NODES=a,b slurm/ray_cluster.sh run --launcher local --cpus 1 -- python my_driver.py   # two local "nodes"
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PYTHONPATH="${here}/..${PYTHONPATH:+:${PYTHONPATH}}"
# the checkout's environment (scripts/install.sh) when it has one, else python3; $PYTHON overrides
if [[ -z "${PYTHON:-}" ]]; then
  if [[ -x "${here}/../.venv/bin/python" ]]; then PYTHON="${here}/../.venv/bin/python"; else PYTHON=python3; fi
fi
exec "${PYTHON}" -m ibench.cluster.bringup "$@"
