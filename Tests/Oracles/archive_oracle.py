#!/usr/bin/env python3
"""Independent keyed-archive readers for Sandbox's interop tests.

Usage:
  archive_oracle.py describe FILE...   decode each FILE with nska-deserialize and with the
                                       NSKeyedUnArchiver package, and print one JSON object
                                       {file name: {"nska": tree, "nskeyedunarchiver": tree}}
A tree is type-tagged so that the Swift side can tell true, 1 and 1.0 apart:
{"b": bool} {"i": int} {"r": float} {"s": str} {"d": base64} {"t": ISO date}
{"a": [trees]} {"o": {key: tree}} and null for None.
A library that fails on a file gets {"error": "..."} instead of a tree.
Exit status 2 if a library is missing (the tests must fail, not skip).
"""
import base64
import datetime
import json
import os
import sys

try:
    import nska_deserialize
    import NSKeyedUnArchiver
except ImportError as error:  # CI installs Tests/Oracles/requirements.txt
    print(f"missing oracle package: {error}", file=sys.stderr)
    sys.exit(2)


def tree(value, depth=0):
    if depth > 200:
        return {"error": "too deep"}
    if value is None:
        return None
    if isinstance(value, bool):
        return {"b": value}
    if isinstance(value, int):
        return {"i": value}
    if isinstance(value, float):
        return {"r": value}
    if isinstance(value, str):
        return {"s": value}
    if isinstance(value, (bytes, bytearray)):
        return {"d": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return {"t": value.isoformat()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return {"a": [tree(item, depth + 1) for item in value]}
    if isinstance(value, dict):
        return {"o": {str(key): tree(item, depth + 1) for key, item in value.items()}}
    return {"s": str(value)}


def decode(reader, data):
    try:
        return tree(reader(data))
    except Exception as error:  # report, let the Swift test decide
        return {"error": f"{type(error).__name__}: {error}"}


def describe(paths):
    result = {}
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read()
        result[os.path.basename(path)] = {
            "nska": decode(lambda d: nska_deserialize.deserialize_plist_from_string(d, full_recurse_convert_nska=True), data),
            "nskeyedunarchiver": decode(NSKeyedUnArchiver.unserializeNSKeyedArchiver, data),
        }
    json.dump(result, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "describe":
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    describe(sys.argv[2:])
