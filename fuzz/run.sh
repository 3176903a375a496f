#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs each one in turn.
#
# Usage: fuzz/run.sh [seconds-per-reader] [reader...]
#   seconds-per-reader  default 60
#   reader              binary xml openstep json detect archive (default: all)
#
# Prints the executions per reader and exits non-zero if any harness found a
# crash, a hang (over 10 s on one input) or an out-of-memory (over 2 GiB).
# Inputs that failed are kept in fuzz/build/crashes-<reader>/, libFuzzer's log
# in fuzz/build/logs-<reader>/fuzz-0.log, and new coverage-increasing inputs
# in fuzz/build/corpus-<reader>/.
set -euo pipefail

seconds=${1:-60}
shift || true
readers=("$@")
[[ ${#readers[@]} -gt 0 ]] || readers=(binary xml openstep json detect archive)

fuzz_dir=$(cd "$(dirname "$0")" && pwd)
build=$fuzz_dir/build

# SwiftPM's --sanitize=fuzzer (unlike -Xswiftc -sanitize=fuzzer) leaves the
# executables' `main` alone, so libFuzzer's own `main` is linked in. The
# flags reach every module, so PropertyList and KeyedArchive are instrumented for coverage
# and checked by AddressSanitizer too.
#
# SwiftPM passes the two sanitizers as separate -sanitize= flags, and
# swiftc keeps only the last for compiling: without the explicit
# -sanitize-coverage below no code is instrumented for coverage and
# libFuzzer mutates blind ("no interesting inputs … Is the code
# instrumented for coverage?", corpus stuck at 1 input).
flags=(--sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library
       -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
echo "== building harnesses"
swift build -c release --package-path "$fuzz_dir" --scratch-path "$build/spm" "${flags[@]}"
bin=$(swift build -c release --package-path "$fuzz_dir" --scratch-path "$build/spm" "${flags[@]}" --show-bin-path)

echo "== building seed corpora"
"$fuzz_dir/make-corpus.sh"
cat "$fuzz_dir"/dictionaries/*.dict >"$build/detect.dict"

harness_name() {
    case $1 in
        binary) echo FuzzBinary ;;
        xml) echo FuzzXML ;;
        openstep) echo FuzzOpenStep ;;
        json) echo FuzzJSON ;;
        detect) echo FuzzDetect ;;
        archive) echo FuzzKeyedArchive ;;
        *) echo "unknown reader: $1" >&2; exit 2 ;;
    esac
}

# Swift's own crash handler reads memory in ways AddressSanitizer reports
# as a second, misleading error; let libFuzzer and ASan report traps alone.
export SWIFT_BACKTRACE=enable=no
if [[ -z ${ASAN_SYMBOLIZER_PATH:-} ]] && command -v llvm-symbolizer >/dev/null; then
    export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer)
fi

summary=()
failed=0
for reader in "${readers[@]}"; do
    harness=$bin/$(harness_name "$reader")
    crashes=$build/crashes-$reader
    logs=$build/logs-$reader
    dict=$fuzz_dir/dictionaries/$reader.dict
    [[ $reader == detect ]] && dict=$build/detect.dict
    mkdir -p "$crashes" "$logs"
    rm -f "$logs"/fuzz-*.log

    echo "== fuzzing $reader for ${seconds}s"
    status=0
    # -jobs=1 runs the fuzzer in a worker process whose output goes to
    # fuzz-0.log in the working directory; the exit status is non-zero when
    # the worker found a crash, timeout or OOM.
    (cd "$logs" && "$harness" -jobs=1 -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
        -timeout=10 -print_final_stats=1 -dict="$dict" -artifact_prefix="$crashes/" \
        "$build/corpus-$reader") >"$logs/driver.log" 2>&1 || status=$?

    log=$logs/fuzz-0.log
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -1)
    found=$(find "$crashes" -type f | wc -l)
    if [[ $status -ne 0 || $found -ne 0 ]]; then
        failed=1
        result="FAILED (exit $status, $found file(s) in $crashes)"
        grep -E "^==[0-9]+==ERROR|^SUMMARY|Fatal error|deadly signal|ALARM|out-of-memory|Test unit written" "$log" || true
    else
        result="no crashes"
    fi
    summary+=("$(printf '%-9s %12s executions in %ss: %s' "$reader" "${executions:-?}" "$seconds" "$result")")
done

echo "== summary"
printf '%s\n' "${summary[@]}"
exit $failed
