#!/usr/bin/env python3
"""Assembles docs/PERFORMANCE.md from the markdown that `plist-benchmark`
and plistlib_bench.py print (run by Benchmarks/Scripts/run.sh).

Everything in the existing document from the line KEEP_MARKER onward is
hand-written analysis and is carried over unchanged.

Usage: report.py --swift FILE --python FILE --output FILE [--load-before X --load-after Y]
"""

import argparse
import datetime
import os
import platform
import re
import subprocess

KEEP_MARKER = "<!-- hand-written below: kept by Benchmarks/Scripts/report.py -->"
TABLE_HEADER = ["| implementation | op | format | bytes | MB/s | time |", "|---|---|---|---:|---:|---:|"]

# The targets for this package, on the large document.
TARGETS = [
    ("binary decode", "decode", "binary", 300.0),
    ("binary encode", "encode", "binary", 200.0),
    ("XML decode", "decode", "xml", 150.0),
    ("XML encode", "encode", "xml", 250.0),
]
BOMB_LIMIT_MS = 50.0
OURS_PREFIX = "ours"


def sections(text):
    """Splits the benchmark output into {heading: [table lines]}."""
    result, current = {}, None
    for line in text.splitlines():
        if line.startswith("### "):
            current = line[4:].strip()
            result[current] = []
        elif current and line.startswith("|"):
            result[current].append(line)
    return result


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def throughput_rows(table):
    """Data rows (header and rule dropped) as dicts."""
    rows = []
    for line in table[2:]:
        implementation, op, fmt, input_name, size, rate, time = cells(line)
        rows.append(dict(implementation=implementation, op=op, format=fmt, input=input_name,
                         bytes=int(size.replace(",", "")), rate=float(rate), time=time))
    return rows


def seconds(human):
    value, unit = human.split()
    return float(value) * {"s": 1.0, "ms": 1e-3, "µs": 1e-6}[unit]


def command_output(arguments):
    try:
        return subprocess.run(arguments, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def input_table(rows, input_name):
    order = {"decode": 0, "encode": 1}
    selected = sorted((row for row in rows if row["input"] == input_name),
                      key=lambda row: (row["format"], order[row["op"]], -row["rate"]))
    lines = list(TABLE_HEADER)
    for row in selected:
        name = f"**{row['implementation']}**" if row["implementation"].startswith(OURS_PREFIX) else row["implementation"]
        lines.append(f"| {name} | {row['op']} | {row['format']} | {row['bytes']:,} | {row['rate']:.1f} | {row['time']} |")
    return lines


def target_table(rows, bomb_table):
    def find(prefix, op, fmt):
        return next((row for row in rows if row["implementation"].startswith(prefix) and row["input"] == "large"
                     and row["op"] == op and row["format"] == fmt), None)

    lines = ["| target | required | measured | met? |", "|---|---|---|---|"]
    for label, op, fmt, required in TARGETS:
        ours = find(OURS_PREFIX, op, fmt)
        if ours is None:
            lines.append(f"| {label} | ≥ {required:.0f} MB/s | not measured | – |")
            continue
        lines.append(f"| {label} | ≥ {required:.0f} MB/s | {ours['rate']:.1f} MB/s | {'yes' if ours['rate'] >= required else '**no**'} |")
    ours, plistlib = find(OURS_PREFIX, "encode", "binary"), find("python plistlib", "encode", "binary")
    if ours and plistlib:
        smaller = ours["bytes"] <= plistlib["bytes"]
        lines.append(f"| binary output size | ≤ plistlib's {plistlib['bytes']:,} B | {ours['bytes']:,} B | {'yes' if smaller else '**no**'} |")
    for line in bomb_table[2:]:
        row = cells(line)
        if row[0].startswith(OURS_PREFIX):
            elapsed = seconds(row[4]) * 1e3
            met = "yes" if elapsed < BOMB_LIMIT_MS else "**no**"
            lines.append(f"| 2^30-leaf bomb decoded or refused | < {BOMB_LIMIT_MS:.0f} ms | {row[4]} ({row[3]}) | {met} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--swift", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--load-before", default="unknown")
    parser.add_argument("--load-after", default="unknown")
    parser.add_argument("--large-reps", default="5")
    parser.add_argument("--small-reps", default="200")
    parser.add_argument("--foundation-large-reps", default=None)
    args = parser.parse_args()

    with open(args.swift) as handle:
        swift = sections(handle.read())
    with open(args.python) as handle:
        python = sections(handle.read())
    rows = throughput_rows(swift.get("Throughput", [])) + throughput_rows(python.get("Throughput", []))
    bomb = swift.get("Shared-reference bomb", [])
    sizes = swift.get("Binary output size (large document)", [])

    kept = ""
    if os.path.exists(args.output):
        with open(args.output) as handle:
            existing = handle.read()
        if KEEP_MARKER in existing:
            kept = existing[existing.index(KEEP_MARKER) + len(KEEP_MARKER):].lstrip("\n")

    anchor_reps = ""
    if args.foundation_large_reps and args.foundation_large_reps != args.large_reps:
        anchor_reps = f" (Foundation and plistlib: {args.foundation_large_reps}; their slowest calls take seconds)"

    def size_of(input_name, fmt):
        row = next((row for row in rows if row["input"] == input_name and row["format"] == fmt and row["op"] == "decode"), None)
        return f"{row['bytes'] / 1e6:.1f} MB" if row and row["bytes"] >= 1e6 else f"{row['bytes'] / 1e3:.1f} KB" if row else "?"

    swift_version = command_output(["swift", "--version"]).splitlines()
    out = [
        "# Property-list performance",
        "",
        "Generated by `Benchmarks/Scripts/run.sh` (do not edit above the hand-written marker; re-run the script instead).",
        "",
        "## Machine",
        "",
        f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- CPU: {cpu_model()}, {command_output(['nproc'])} cores (`nproc`)",
        f"- OS: {platform.system()} {platform.release()}",
        f"- Swift: {swift_version[0] if swift_version else 'unknown'}; Python: {platform.python_version()}",
        f"- Load average (1 min) before / after the run: {args.load_before} / {args.load_after}. The machine's 2 cores are",
        "  shared with other builds, so single figures are noisy (±30 % between runs is usual); best-of-N reduces but does",
        "  not remove that noise.",
        "",
        "## Method",
        "",
        "- Inputs: `Benchmarks/Scripts/gen_data.py` (seeded, deterministic) writes a top-level dictionary of 70,000 entries of mixed",
        "  types (name with some non-ASCII titles, Int64 ±2^40, Double, Bool, whole-second Date, 4–31-byte Data, 0–4 tags from",
        "  a ~200-word vocabulary with non-ASCII words, 0–3 ints) with plistlib, as binary "
        f"({size_of('large', 'binary')}) and XML ({size_of('large', 'xml')}),",
        f"  and a 20-entry variant ({size_of('small', 'binary')} / {size_of('small', 'xml')}). See notes/formats.md §5.",
        f"- Each figure is the best wall time (`ContinuousClock` in Swift, `time.perf_counter` in Python) of {args.large_reps}",
        f"  repetitions on the large document{anchor_reps} and {args.small_reps} on the small one, in one process. The release build",
        "  (`swift build -c release --product plist-benchmark`) is used; this is a benchmark, not a timed test.",
        "- Decode MB/s = input bytes / time; **encode MB/s = output bytes / time** (outputs differ in size, see the bytes",
        "  column). MB = 10^6 bytes. Only the call is timed: the previous result is freed before the clock starts.",
        "- ours: `PropertyListValue.decode(_:as:)` and `value.encoded(as:)`; the encoder's input is the value just decoded.",
        "  Binary documents of 65,536 objects or more are decoded and encoded on two threads (the root's children split in",
        "  half; output byte for byte the one-thread writer's), so the large binary figures use both cores; the others, and",
        "  every figure of Foundation and plistlib, use one.",
        "- `PropertyListSerialization`: decode includes bridging to `[String: Any]`; encode takes that dictionary.",
        "- `PropertyListDecoder/Encoder`: decodes into a `Codable` `[String: Entry]` and encodes it back.",
        "- python plistlib: `plistlib.loads` / `plistlib.dumps(sort_keys=False)`, garbage collector enabled.",
        "",
        "## Targets (large document, ours)",
        "",
        *target_table(rows, bomb),
        "",
        f"## Large document ({size_of('large', 'binary')} binary / {size_of('large', 'xml')} XML)",
        "",
        *input_table(rows, "large"),
        "",
        f"## Small document ({size_of('small', 'binary')} binary / {size_of('small', 'xml')} XML) — per-call cost dominates",
        "",
        *input_table(rows, "small"),
        "",
        "## Shared-reference bomb",
        "",
        "`bomb30.bplist`: object i is the array `[i+1, i+1]` for 30 levels, ending in an integer — 2^30 leaves if",
        "references are expanded. Foundation is run on the 20-level file only.",
        "",
        *bomb,
        "",
        "## Binary output size (large document)",
        "",
        *sizes,
        "",
        KEEP_MARKER,
        "",
    ]
    text = "\n".join(out) + ("\n" + kept if kept else "")
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
