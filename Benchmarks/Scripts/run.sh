#!/usr/bin/env bash
# Runs the property-list benchmark and rewrites docs/PERFORMANCE.md.
#
#   Benchmarks/Scripts/run.sh            # generate data if missing, build release, run everything
#   LARGE_REPS=3 SMALL_REPS=50 SKIP_FOUNDATION=1 Benchmarks/Scripts/run.sh
#   LARGE_REPS=20 FOUNDATION_LARGE_REPS=3 Benchmarks/Scripts/run.sh   # ours best of 20, Foundation of 3
#
# Takes a few minutes: Foundation's PropertyListSerialization needs ~10 s per
# large encode. Raw outputs are kept next to the data (Benchmarks/Scripts/data/*.md).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
data=${DATA_DIR:-$root/benchmarks/data}
large_reps=${LARGE_REPS:-5}
small_reps=${SMALL_REPS:-200}
cd "$root"

for file in large.bplist large.xml small.bplist small.xml bomb20.bplist bomb30.bplist; do
    if [[ ! -f "$data/$file" ]]; then
        python3 Benchmarks/Scripts/gen_data.py "$data"
        break
    fi
done

swift build -c release --product plist-benchmark
bin=$(swift build -c release --show-bin-path)/plist-benchmark

swift_args=(--data "$data" --large-reps "$large_reps" --small-reps "$small_reps")
[[ -n "${SKIP_FOUNDATION:-}" ]] && swift_args+=(--skip-foundation)
[[ -n "${FOUNDATION_LARGE_REPS:-}" ]] && swift_args+=(--foundation-large-reps "$FOUNDATION_LARGE_REPS")

load_before=$(cut -d' ' -f1 /proc/loadavg)
echo "== plist-benchmark (progress on stderr)" >&2
"$bin" "${swift_args[@]}" >"$data/swift_results.md"
echo "== plistlib" >&2
python3 Benchmarks/Scripts/plistlib_bench.py --data "$data" --large-reps "${FOUNDATION_LARGE_REPS:-$large_reps}" --small-reps "$small_reps" \
    | tee "$data/plistlib_results.md" >&2
load_after=$(cut -d' ' -f1 /proc/loadavg)

python3 Benchmarks/Scripts/report.py --swift "$data/swift_results.md" --python "$data/plistlib_results.md" \
    --output docs/PERFORMANCE.md --load-before "$load_before" --load-after "$load_after" \
    --large-reps "$large_reps" --small-reps "$small_reps" --foundation-large-reps "${FOUNDATION_LARGE_REPS:-$large_reps}"
