#!/usr/bin/env bash
# NVML's facts on a real driver: each GPU's serial (--list-devices and
# meta.json, to agree with nvidia-smi's) and, on two GPUs or more, the link
# between them (--list-devices, gpus.csv); then a small map's meta.json.
# usage: bench/gpu-nvml-facts.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
step nvidia-smi topo -m
C="$BIN/cumap"
step "$C" --list-devices
timed "$C" --backend cuda --units 0-15 --iters 20 --rotating-count 4 --quiet --out "$OUT/small"
step python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['device']; print('serial', d.get('serial'), 'pci', d.get('pci_bus_id'))" "$OUT/small/meta.json"
echo done | tee -a "$LOG"
