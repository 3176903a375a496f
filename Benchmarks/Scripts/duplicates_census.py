#!/usr/bin/env python3
"""Sorts the pairs `duplicates` lists in Sources/ (those it does not mark
boilerplate) into the families of docs/DUPLICATES.md, by what the shared lines are.

    duplicates --repo Sources --most 200 --seconds 120 | Benchmarks/Scripts/duplicates_census.py

Prints a count per family, then each pair under its family; a pair whose two
sides fall in no family is listed under "unsorted", to be read by a person."""
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "Sources"

# Each family: a name and a test on the stripped, non-comment lines of one side.
def share(lines, pattern):
    return sum(1 for line in lines if re.search(pattern, line)) / max(len(lines), 1)

FAMILIES = [
    ("error codes: a module's CodedError code enum, one documented case a line",
     lambda t: share(t, r"^case \w+\s*$") >= 0.4),
    ("enums with raw values", lambda t: share(t, r"^case \w+ = ") >= 0.4),
    ("ArgumentParser command and option declarations",
     lambda t: share(t, r"@Option|@Flag|@Argument|CommandConfiguration|ParsableCommand|@OptionGroup") > 0),
    ("field-by-field merges of counters", lambda t: share(t, r"^\w+ \+= \w+\.\w+$") >= 0.5),
    ("escapers and byte scanners whose outputs differ on purpose",
     lambda t: share(t, r'^case "|^while position < end|^let byte = text\[position\]') >= 0.3),
    ("Decoder container witnesses (one overload per primitive type)", lambda t: share(t, r"func decodeIfPresent") >= 0.5),
    ("public value types: stored properties and their public memberwise init",
     lambda t: share(t, r"^self\.\w+ = \w+$|^(public )?(let|var) \w+: |^public (struct|init)|^(public )?init\(") >= 0.3),
]

def side(spec):
    path, span = spec.rsplit(":", 1)
    first, last = map(int, span.split("-"))
    lines = (ROOT / path).read_text().split("\n")[first - 1:last]
    return [l.strip() for l in lines if l.strip() and not l.strip().startswith("//")]

def family(lines):
    for name, test in FAMILIES:
        if test(lines):
            return name
    return None

def main():
    text = sys.stdin.read()
    header = text.split("\n", 1)[0]
    groups = collections.defaultdict(list)
    for row in text.splitlines():
        match = re.match(r"(D\d+) (\S+) ~ (\S+)", row)
        if not match or "boilerplate" in row:
            continue
        _, left, right = match.groups()
        names = {family(side(left)), family(side(right))} - {None}
        groups[names.pop() if len(names) == 1 else "unsorted"].append(row.strip())
    print(header)
    print(f"not marked boilerplate: {sum(map(len, groups.values()))}")
    for name, rows in sorted(groups.items(), key=lambda item: -len(item[1])):
        print(f"\n{len(rows)}  {name}")
        for row in rows:
            print(f"    {row}")

main()
