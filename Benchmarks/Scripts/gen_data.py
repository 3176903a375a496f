#!/usr/bin/env python3
"""Generates the property-list benchmark inputs (seeded, so every run writes
the same bytes).

The large document is a top-level dictionary of 70,000 entries of mixed
types (see notes/formats.md section 5); plistlib writes it as binary
(~17 MB) and XML (~39 MB). A 20-entry variant gives the small (~4 KB)
document. The "bomb" files are binary property lists whose object i is the
array [i+1, i+1]: a few hundred bytes that expand to 2^levels leaves if
shared references are not kept shared.

Usage: gen_data.py [DATA_DIR]   (default: Benchmarks/Scripts/data next to this script)
"""

import datetime
import os
import plistlib
import random
import struct
import sys

SEED = 20240917
LARGE_ENTRIES = 70_000
SMALL_ENTRIES = 20
BOMB_LEVELS = (20, 30)

# Words that force UTF-16 storage in binary plists and multi-byte UTF-8 in XML.
NON_ASCII_WORDS = [
    "café", "naïve", "über", "Straße", "résumé", "façade", "jalapeño", "smörgåsbord",
    "Ελλάδα", "λόγος", "Москва", "книга", "日本", "東京", "漢字", "한국어", "العربية",
    "עברית", "हिन्दी", "ไทย", "emoji🙂", "crème brûlée", "Zürich",
]
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "dri", "str", "an", "el", "or", "qu"]
FIRST_NAMES = ["Ada", "Alan", "Grace", "Linus", "Barbara", "Ken", "Dennis", "Margaret", "Edsger", "Frances",
               "John", "Radia", "Donald", "Sophie", "Niklaus", "Hedy", "Tim", "Anita", "Guido", "Katherine"]
LAST_NAMES = ["Lovelace", "Turing", "Hopper", "Torvalds", "Liskov", "Thompson", "Ritchie", "Hamilton",
              "Dijkstra", "Allen", "McCarthy", "Perlman", "Knuth", "Wilson", "Wirth", "Lamarr", "Berners-Lee",
              "Borg", "van Rossum", "Johnson"]
ROLES = ["engineer", "designer", "manager", "analyst", "researcher", "writer", "architect", "operator"]
TEAMS = ["Platform Infrastructure", "Mobile Applications", "Developer Tools", "Storage Systems",
         "Networking Services", "Quality Engineering", "Human Interface", "Data Protection"]
NON_ASCII_TITLES = ["Señora", "Herr Dr.", "Mlle Éloïse", "Příjmení", "Ἀθηνᾶ", "Дорогой", "様", "Ünal"]

EPOCH_START = datetime.datetime(2000, 1, 1)
EPOCH_SPAN_SECONDS = 30 * 365 * 86_400


def vocabulary(rng):
    """About 200 distinct words: generated ASCII ones plus the non-ASCII list."""
    words = set()
    while len(words) < 180:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words) + NON_ASCII_WORDS


def entry(rng, words):
    name = (f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}, {rng.choice(ROLES)}, "
            f"{rng.choice(TEAMS)} #{rng.randint(0, 99_999)}")
    if rng.random() < 0.05:
        name = f"{rng.choice(NON_ASCII_TITLES)} {name}"
    return {
        "name": name,
        "id": rng.randint(-(1 << 40), 1 << 40),
        "score": rng.uniform(-1000.0, 1000.0),
        "flag": rng.random() < 0.5,
        "date": EPOCH_START + datetime.timedelta(seconds=rng.randrange(EPOCH_SPAN_SECONDS)),
        "blob": rng.randbytes(rng.randint(4, 31)),
        "tags": [rng.choice(words) for _ in range(rng.randint(0, 4))],
        "scores": [rng.randint(0, 1000) for _ in range(rng.randint(0, 3))],
    }


def document(count):
    # One generator per document so the small file does not depend on the large one.
    rng = random.Random(SEED)
    words = vocabulary(rng)
    return {f"entry-{index:06d}": entry(rng, words) for index in range(count)}


def bomb(levels):
    """A bplist of `levels` arrays where array i holds two references to
    object i+1, ending in the integer 0: 2^levels leaves if expanded."""
    objects = [bytes([0xA2, i + 1, i + 1]) for i in range(levels)] + [bytes([0x10, 0x00])]
    body = bytearray(b"bplist00")
    offsets = []
    for obj in objects:
        offsets.append(len(body))
        body += obj
    offset_table_offset = len(body)
    body += bytes(offsets)  # every offset fits in one byte
    body += struct.pack(">6xBBQQQ", 1, 1, len(objects), 0, offset_table_offset)
    return bytes(body)


def write(path, payload):
    with open(path, "wb") as handle:
        handle.write(payload)
    print(f"{path}: {len(payload):,} bytes")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "data")
    os.makedirs(data_dir, exist_ok=True)
    for label, count in (("large", LARGE_ENTRIES), ("small", SMALL_ENTRIES)):
        doc = document(count)
        # sort_keys=False keeps the generated (insertion) order in both files.
        write(os.path.join(data_dir, f"{label}.bplist"), plistlib.dumps(doc, fmt=plistlib.FMT_BINARY, sort_keys=False))
        write(os.path.join(data_dir, f"{label}.xml"), plistlib.dumps(doc, fmt=plistlib.FMT_XML, sort_keys=False))
    for levels in BOMB_LEVELS:
        write(os.path.join(data_dir, f"bomb{levels}.bplist"), bomb(levels))


if __name__ == "__main__":
    main()
