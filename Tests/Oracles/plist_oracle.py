#!/usr/bin/env python3
"""Independent property-list readers and writers for Sandbox's interop tests.

Usage:
  plist_oracle.py roundtrip LIB DIR   read every *.binary / *.xml file in DIR with LIB
                                      (plistlib or biplist) and write it back with LIB,
                                      in the same format, to FILE.LIB
  plist_oracle.py describe FILE       print a canonical JSON description of FILE as
                                      plistlib reads it
  plist_oracle.py write DIR           write plistlib's and biplist's renderings of one
                                      fixed value to DIR (for the Swift side to read)
Exit status 1 and a message on stderr for any file a library could not handle.
"""
import base64
import datetime
import json
import os
import plistlib
import sys

import biplist


def describe(value):
    """A JSON-able, type-tagged form that does not depend on the library's types."""
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, (plistlib.UID, biplist.Uid)):
        return {"uid": int(value.data if isinstance(value, plistlib.UID) else value.integer)}
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, float):
        return {"real": repr(value)}
    if isinstance(value, str):
        return {"string": value}
    if isinstance(value, (bytes, bytearray)):
        return {"data": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return {"date": value.isoformat()}
    if isinstance(value, (list, tuple)):
        return {"array": [describe(item) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[key, describe(item)] for key, item in value.items()]}
    raise TypeError(f"unexpected type {type(value).__name__}")


def roundtrip(lib, directory):
    failures = 0
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        is_binary = name.endswith(".binary")
        if not (is_binary or name.endswith(".xml")):
            continue
        if lib == "biplist" and not is_binary:
            continue
        try:
            if lib == "plistlib":
                with open(path, "rb") as handle:
                    value = plistlib.load(handle)
                fmt = plistlib.FMT_BINARY if is_binary else plistlib.FMT_XML
                with open(path + "." + lib, "wb") as handle:
                    plistlib.dump(value, handle, fmt=fmt, sort_keys=False)
            else:
                value = biplist.readPlist(path)
                biplist.writePlist(value, path + "." + lib, binary=True)
        except Exception as error:  # report every failure, keep going
            failures += 1
            print(f"{name}: {lib}: {type(error).__name__}: {error}", file=sys.stderr)
    return failures


FIXED_VALUE = {
    "name": "Possessions",
    "count": 42,
    "negative": -80000000000,
    "huge": 2**64 - 1,
    "ratio": 0.1,
    "ok": True,
    "created": datetime.datetime(2011, 3, 4, 5, 6, 7),
    "blob": b"\x00\x01\xfe\xff",
    "unicode": "Mässig, Maß 🙂",
    "list": [1, "two", 3.5, [], {}],
}


def write_fixed(directory):
    with open(os.path.join(directory, "fixed.plistlib.binary"), "wb") as handle:
        plistlib.dump(FIXED_VALUE, handle, fmt=plistlib.FMT_BINARY, sort_keys=False)
    with open(os.path.join(directory, "fixed.plistlib.xml"), "wb") as handle:
        plistlib.dump(FIXED_VALUE, handle, fmt=plistlib.FMT_XML, sort_keys=False)
    biplist_value = dict(FIXED_VALUE)
    del biplist_value["huge"]  # biplist cannot write integers above 2**63 - 1
    biplist.writePlist(biplist_value, os.path.join(directory, "fixed.biplist.binary"), binary=True)
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "roundtrip" and argv[2] in ("plistlib", "biplist"):
        return 1 if roundtrip(argv[2], argv[3]) else 0
    if len(argv) == 3 and argv[1] == "describe":
        with open(argv[2], "rb") as handle:
            print(json.dumps(describe(plistlib.load(handle)), ensure_ascii=False, sort_keys=True))
        return 0
    if len(argv) == 3 and argv[1] == "write":
        return write_fixed(argv[2])
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
