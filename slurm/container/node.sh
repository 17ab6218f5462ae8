#!/usr/bin/env bash
# One node's part of slurm/ibench-container.sbatch, run inside the image (one task per node).
# Node 0: the launch's checks (exit 2 before any Ray process), then the Ray head and the driver
# through the bring-up (`--launcher local`: this node only), the driver told how many nodes to wait
# for; at the end it leaves driver.done in the cluster's folder. Other nodes: a Ray worker that
# finds the head through head.json in that folder, stopped once driver.done appears.
set -euo pipefail
cd "${IBENCH_ROOT:?}"
export PYTHONPATH="${IBENCH_ROOT}${PYTHONPATH:+:${PYTHONPATH}}"
if [[ -f "${IBENCH_ROOT}/.venv/bin/activate" && -z "${IBENCH_IN_IMAGE_PYTHON:-}" && -z "${APPTAINER_CONTAINER:-}${SINGULARITY_CONTAINER:-}${PYXIS_CONTAINER:-}${ENROOT_ROOTFS:-}" ]]; then
  source "${IBENCH_ROOT}/.venv/bin/activate"   # no container: the checkout's own environment
fi
PYTHON="${PYTHON:-python3}"
name="${SLURMD_NODENAME:-$(hostname)}"
dir="${IBENCH_CLUSTER_DIR:?}"
done_file="${dir}/driver.done"
nodes="${SLURM_JOB_NUM_NODES:-1}"

if [[ "${SLURM_NODEID:-0}" == 0 ]]; then
  args=("$@")
  if ! printf '%s\n' "${args[@]}" | grep -q '^cluster='; then args+=("cluster=slurm"); fi
  rc=0
  if [[ "${IBENCH_PREFLIGHT:-1}" != 0 ]]; then
    t0=${EPOCHREALTIME}
    "${PYTHON}" -m ibench.run.check "${args[@]}" || rc=$?
    echo "ibench: preflight exit ${rc} in $(awk -v a="${t0}" -v b="${EPOCHREALTIME}" 'BEGIN { printf "%.2f", b - a }')s"
  fi
  if [[ ${rc} -eq 0 ]]; then
    "${PYTHON}" -m ibench.cluster.bringup run --launcher local --nodes "${name}" --job-dir "${dir}" \
        --temp-dir "${IBENCH_RAY_TMP}" ${IBENCH_BRINGUP_ARGS:-} \
        -- "${PYTHON}" -m ibench.launch "${args[@]}" "cluster.expected_nodes=${nodes}" || rc=$?
  fi
  touch "${done_file}"   # the workers stop (also after a refusal: they need not wait for a head)
  exit "${rc}"
fi

# a worker: join the head once it is up; stop when the driver is done (or the head never came)
"${PYTHON}" -m ibench.cluster.bringup node --role worker --job-dir "${dir}" --name "${name}" \
    --temp-dir "${IBENCH_RAY_TMP}" --timeout "${IBENCH_JOIN_TIMEOUT_S:-900}" &
pid=$!
trap 'kill -TERM "${pid}" 2>/dev/null || true' TERM INT
while kill -0 "${pid}" 2>/dev/null; do
  if [[ -f "${done_file}" ]]; then kill -TERM "${pid}" 2>/dev/null || true; break; fi
  sleep 2
done
wait "${pid}" 2>/dev/null || true
exit 0
