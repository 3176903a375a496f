#!/usr/bin/env bash
# Issue 13's FileSystem targets in ONE run, on one directory: the C sequences
# of atomic_sequences.c, then filesystem-benchmark (atomic writes at
# `.fileOnly` against Foundation and at `.full` against the two-flush libc
# sequence, confined open and stat), then the C sequences again (so a change
# of the disk's mood during the run shows), then container-benchmark
# (confined open/stat through Container, against Foundation and libc).
#
#   Benchmarks/Scripts/filesystem_bench.sh [DIR]
#   SCRATCH=.build-rel CALLS=200 Benchmarks/Scripts/filesystem_bench.sh
#
# DIR (default: a scratch directory in the package) must be on the disk under
# test: /tmp may be a tmpfs, where no flush costs anything.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scratch=${SCRATCH:-.build-rel}
calls=${CALLS:-200}
dir=${1:-$root/.bench-fs}
mkdir -p "$dir"

swift build -c release --scratch-path "$scratch" --product filesystem-benchmark >&2
swift build -c release --scratch-path "$scratch" --product container-benchmark >&2
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
cc -O2 -o "$dir/atomic_sequences" Benchmarks/Scripts/atomic_sequences.c

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); file system: $(df -T "$dir" | awk 'NR==2 {print $2}')"
echo
echo "## C sequences (atomic_sequences.c, 4 KiB, 300 alternating calls each), before"
echo '```'
"$dir/atomic_sequences" "$dir" 300
echo '```'
echo
echo "## filesystem-benchmark"
echo
"$bin/filesystem-benchmark" "$calls" "$dir"
echo
echo "## C sequences, after"
echo '```'
"$dir/atomic_sequences" "$dir" 300
echo '```'
echo
echo "## container-benchmark"
echo
"$bin/container-benchmark" 9 "$dir"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$dir/atomic_sequences" "$dir/data.bin"
rmdir "$dir" 2>/dev/null || true
