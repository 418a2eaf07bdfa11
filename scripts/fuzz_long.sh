#!/bin/sh
# The fuzzer's long run (issue 9: >= 10^6 calls, not in the test command): seeded calls in chunks
# of 20,000, each chunk compared with upstream (both sides in child interpreters, upstream's
# answers not cached: --no-cache), at low priority. A line per chunk with the running counts goes
# to the log; the exit status is 1 when any call differs.
#   scripts/fuzz_long.sh [seed] [calls] [start] [log]     # defaults: 1 1000000 0 build/fuzz-long.log
# A run can be resumed (or split across machines) with start: calls are a function of (seed, index)
# for one kernel list (after schemas/kernels.yaml changed, resume at a round: Note [Fuzz draw]).
set -eu
cd "$(dirname "$0")/.."
seed=${1:-1}
calls=${2:-1000000}
start=${3:-0}
log=${4:-build/fuzz-long.log}
mkdir -p "$(dirname "$log")"
echo "fuzz long run: seed=$seed calls=$calls start=$start commit=$(git rev-parse --short HEAD) $(date -u +%FT%TZ)" >> "$log"
exec nice -n 19 .venv/bin/python tests/python/fuzz.py --seed "$seed" --calls "$calls" --start "$start" --no-cache >> "$log" 2>&1
