set -u
nvidia-smi --query-gpu=index,name,serial,pci.bus_id,driver_version --format=csv > $OUT/chips.txt; date -u >> $OUT/chips.txt
python3 bench/.probe2.py
export LD_LIBRARY_PATH=$PWD/.carry/lib CUMAP_FONT=$PWD/.carry/DejaVuSans.ttf
.carry/bin/cumap --backend cuda --devices 0,1 --quiet --flag-offset 1052672 --out /tmp/moff
python3 bench/analyze_cross.py /tmp/m0 /tmp/moff > $OUT/cross.txt 2>&1
cp /tmp/m0/summary.md $OUT/summary-m0.md
