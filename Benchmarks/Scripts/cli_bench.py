#!/usr/bin/env python3
"""Whole-process timings of `sandbox plist` beside plistlib's whole process
(issue 14): each command is started fresh, as a user runs it, on the
benchmark's large binary document, and the best and median wall times of
RUNS starts are printed, with the CPU time (user + system) of the best run
and the largest peak resident memory of any run.

Usage: cli_bench.py SANDBOX DATA_DIR [RUNS] [OLD_SANDBOX]
  SANDBOX      the release `sandbox` executable
  DATA_DIR     where gen_data.py wrote large.bplist
  OLD_SANDBOX  another release `sandbox` (say, main's) whose `-convert xml1` is timed beside
"""
import os
import statistics
import subprocess
import sys
import time


def timed(command):
    """Wall and CPU seconds and peak resident memory (KiB) of one run, from the child's own rusage."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, command)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main():
    sandbox, data = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    old = sys.argv[4] if len(sys.argv) > 4 else None
    document = os.path.join(data, "large.bplist")
    output = os.path.join(data, "cli-bench-out.xml")
    commands = {
        "sandbox plist -lint": [sandbox, "plist", "-lint", document],
        "sandbox plist -convert xml1": [sandbox, "plist", "-convert", "xml1", "-o", output, document],
        **({"old sandbox plist -convert xml1": [old, "plist", "-convert", "xml1", "-o", output, document]} if old else {}),
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
    print("| command | best | median | CPU of best | peak memory |")
    print("|---|---:|---:|---:|---:|")
    for name, samples in results.items():
        best = min(samples)
        median = statistics.median(wall for wall, _, _ in samples)
        peak = max(rss for _, _, rss in samples)
        print(f"| {name} | {best[0] * 1000:.0f} ms | {median * 1000:.0f} ms | {best[1] * 1000:.0f} ms | {peak / 1024:.0f} MiB |")


if __name__ == "__main__":
    main()
