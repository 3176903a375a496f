#!/usr/bin/env python3
"""Whole-process timings of `sandbox plist` beside plistlib's whole process
(issue 14): each command is started fresh, as a user runs it, on the
benchmark's large binary document, and the best and median wall times of
RUNS starts are printed, with the CPU time (user + system) of the best run.

Usage: cli_bench.py SANDBOX DATA_DIR [RUNS]
  SANDBOX   the release `sandbox` executable
  DATA_DIR  where gen_data.py wrote large.bplist
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def timed(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    sandbox, data = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    document = os.path.join(data, "large.bplist")
    output = os.path.join(data, "cli-bench-out.xml")
    commands = {
        "sandbox plist -lint": [sandbox, "plist", "-lint", document],
        "sandbox plist -convert xml1": [sandbox, "plist", "-convert", "xml1", "-o", output, document],
        "python3 plistlib.loads": [sys.executable, "-c",
                                   f"import plistlib; plistlib.loads(open({document!r}, 'rb').read())"],
        "python3 plistlib loads + dumps(FMT_XML)": [sys.executable, "-c",
                                   f"import plistlib; v = plistlib.loads(open({document!r}, 'rb').read()); "
                                   f"open({output!r}, 'wb').write(plistlib.dumps(v, fmt=plistlib.FMT_XML, sort_keys=False))"],
    }
    results = {name: [] for name in commands}
    # Interleaved, so a busy moment of the machine falls on every command alike.
    for _ in range(runs):
        for name, command in commands.items():
            results[name].append(timed(command))
    print(f"load average: {open('/proc/loadavg').read().split()[0]}; {runs} starts each, interleaved")
    print("| command | best | median | CPU of best |")
    print("|---|---:|---:|---:|")
    for name, samples in results.items():
        best = min(samples)
        median = statistics.median(wall for wall, _ in samples)
        print(f"| {name} | {best[0] * 1000:.0f} ms | {median * 1000:.0f} ms | {best[1] * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
