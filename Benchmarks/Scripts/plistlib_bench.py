#!/usr/bin/env python3
"""Times Python's plistlib on the files Benchmarks/Scripts/gen_data.py writes, the
same way the Swift `plist-benchmark` times the Swift implementations:
best-of-N wall time of one call; decode MB/s = input bytes / time, encode
MB/s = output bytes / time (MB = 10^6 bytes). Prints the same markdown
table. The garbage collector stays enabled, as in an application; the
previous result is released before the clock starts.

Usage: plistlib_bench.py [--data DIR] [--large-reps N] [--small-reps N]
"""

import argparse
import os
import platform
import plistlib
import time

FORMATS = (("binary", plistlib.FMT_BINARY, "bplist"), ("xml", plistlib.FMT_XML, "xml"))


def best_of(repetitions, body):
    best, result = float("inf"), None
    for _ in range(max(repetitions, 1)):
        result = None
        start = time.perf_counter()
        value = body()
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        result = value
    return best, result


def human_time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"


def row(implementation, operation, fmt, input_name, size, seconds):
    return (f"| {implementation} | {operation} | {fmt} | {input_name} | {size:,} | "
            f"{size / 1e6 / seconds:.1f} | {human_time(seconds)} |")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(here, "data"))
    parser.add_argument("--large-reps", type=int, default=5)
    parser.add_argument("--small-reps", type=int, default=200)
    args = parser.parse_args()

    implementation = f"python plistlib ({platform.python_version()})"
    print("### Throughput\n")
    print("| implementation | op | format | input | bytes | MB/s | time |")
    print("|---|---|---|---|---:|---:|---:|")
    for input_name, repetitions in (("large", args.large_reps), ("small", args.small_reps)):
        for label, fmt, extension in FORMATS:
            with open(os.path.join(args.data, f"{input_name}.{extension}"), "rb") as handle:
                data = handle.read()
            seconds, value = best_of(repetitions, lambda: plistlib.loads(data))
            print(row(implementation, "decode", label, input_name, len(data), seconds), flush=True)
            seconds, output = best_of(repetitions, lambda: plistlib.dumps(value, fmt=fmt, sort_keys=False))
            print(row(implementation, "encode", label, input_name, len(output), seconds), flush=True)
            del value, output


if __name__ == "__main__":
    main()
