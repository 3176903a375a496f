#!/usr/bin/env bash
# Builds the seed corpora in fuzz/build/corpus-<reader>/ from the shared
# fixtures (copied at build time, never committed) plus small hand-made
# seeds written here. Existing files are kept, so inputs libFuzzer found in
# earlier runs stay in the corpus.
#
# Usage: fuzz/make-corpus.sh [fixtures-dir]
#   fixtures-dir defaults to ../shared/fixtures/plist next to the package root.
set -euo pipefail

fuzz_dir=$(cd "$(dirname "$0")" && pwd)
package_dir=$(dirname "$fuzz_dir")
fixtures=${1:-$(dirname "$package_dir")/shared/fixtures/plist}
build=$fuzz_dir/build

if [[ ! -d $fixtures ]]; then
    echo "make-corpus: fixtures not found at $fixtures; using hand-made seeds only" >&2
fi

# copy_fixtures <reader> <glob relative to the fixtures dir>...
copy_fixtures() {
    local reader=$1; shift
    local dir=$build/corpus-$reader pattern file
    [[ -d $fixtures ]] || return 0
    for pattern in "$@"; do
        for file in "$fixtures"/$pattern; do
            [[ -f $file ]] || continue
            cp -n "$file" "$dir/fixture-$(basename "$(dirname "$file")")-$(basename "$file")"
        done
    done
}

# seed <reader> <name> <printf format> — a hand-made seed; printf expands \xNN.
seed() {
    printf "$3" >"$build/corpus-$1/seed-$2"
}

# repeat <text> <count>
repeat() {
    local out="" i
    for ((i = 0; i < $2; i++)); do out+=$1; done
    printf '%s' "$out"
}

for reader in binary xml openstep json detect archive; do
    mkdir -p "$build/corpus-$reader"
done

# --- binary -----------------------------------------------------------------
copy_fixtures binary 'bplist/*' 'keyed_archive/*' 'malformed/*.bplist' 'malformed/*.bin' 'malformed/*archive.plist' \
    'malformed/libplist_*.bplist' 'malformed/rustplist_binary_*'
seed binary magic-only 'bplist00'
# One-object files: a 1-byte integer, an empty array, an empty dictionary.
trailer='\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
seed binary int 'bplist00\x10\x2a\x08'"$trailer"'\x0a'
seed binary empty-array 'bplist00\xa0\x08'"$trailer"'\x09'
seed binary empty-dict 'bplist00\xd0\x08'"$trailer"'\x09'
if command -v python3 >/dev/null; then
    # Richer binary seeds: every type, extended counts, 16-byte integers,
    # nesting at and around the depth limit, and shared sub-trees.
    python3 - "$build/corpus-binary" <<'PY'
import datetime, plistlib, sys
out = sys.argv[1]
def save(name, value):
    with open(f"{out}/seed-{name}", "wb") as f:
        f.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False))
save("all-types", {"s": "héllo ✓", "i": -1, "big": 2**64 - 1, "r": 1.5, "t": True, "f": False,
                   "d": datetime.datetime(2020, 2, 29, 12, 0, 0), "b": b"\x00\x01\xff",
                   "u": plistlib.UID(3), "a": list(range(20)), "k": {str(i): i for i in range(16)}})
def nested(depth):
    value = []
    for _ in range(depth - 1):
        value = [value]
    return value
for depth in (511, 512, 513):
    save(f"depth-{depth}", nested(depth))
shared = ["x"]
for _ in range(40):  # 2^40 leaves, 41 objects: readers must share, not copy
    shared = [shared, shared]
save("shared-subtrees", shared)
PY
else
    echo "make-corpus: python3 not found; skipping generated binary seeds" >&2
fi

# --- XML --------------------------------------------------------------------
copy_fixtures xml 'xml/*' 'misc/*' 'malformed/*xml*' 'malformed/sf_bad_plist.bad'
header='<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n'
seed xml true '<plist><true/></plist>'
seed xml all-types "$header"'<dict>\n\t<key>s</key><string>a &amp; b &lt; &#x1F600; &#13;</string>\n\t<key>i</key><integer>-0x1F</integer>\n\t<key>r</key><real>nan</real>\n\t<key>d</key><date>2020-01-01T10:00:00.5Z</date>\n\t<key>b</key><data>AAEC/+8=</data>\n\t<key>u</key><dict><key>CF$UID</key><integer>7</integer></dict>\n\t<key>a</key><array><false/><string/><real>-0</real><date>2020</date></array>\n</dict>\n</plist>\n'
seed xml cdata-comment '<plist version="1.0"><string>x<!-- c --><![CDATA[<y>]]></string></plist>'
seed xml entity-decl '<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaa">]><plist><string>&a;</string></plist>'
seed xml utf16le-bom '\xff\xfe<\x00p\x00l\x00i\x00s\x00t\x00>\x00<\x00t\x00r\x00u\x00e\x00/\x00>\x00<\x00/\x00p\x00l\x00i\x00s\x00t\x00>\x00'
for depth in 511 512 513; do
    seed xml "depth-$depth" "<plist>$(repeat '<array>' $depth)$(repeat '</array>' $depth)</plist>"
done

# --- OpenStep ---------------------------------------------------------------
copy_fixtures openstep 'openstep/*'
seed openstep dict '{ a = 1; "b c" = ( x, "y\\n\\U00e9\\101", <0a1b 2c> ); d = {}; }'
seed openstep strings-file '/* comment */\n"key" = "value";\n// line\nother = "x";\n'
seed openstep bare-string 'hello'
seed openstep gnustep '{ i = <*I5>; r = <*R3.5>; b = <*BY>; d = <*D2011-11-28 09:21:30 +0000>; x = <[AAEC]>; }'
seed openstep utf16be-bom '\xfe\xff\x00(\x00a\x00,\x00b\x00)'
seed openstep empty ''
for depth in 511 512 513; do
    seed openstep "depth-$depth" "$(repeat '(' $depth)$(repeat ')' $depth)"
done

# --- JSON -------------------------------------------------------------------
# No JSON fixtures exist; these cover every JSON construct.
seed json object '{"a": 1, "b": [true, false, null, 1.5e10, -0, "x\\u00e9\\ud83d\\ude00\\n"], "c": {}, "d": []}'
seed json numbers '[0, -1, 9223372036854775807, -9223372036854775808, 18446744073709551615, 1e400, 2.5E-3, 0.1]'
seed json string '"just a string"'
seed json duplicate-keys '{"a": 1, "a": 2}'
seed json whitespace ' \t\r\n[ ]\n'
for depth in 511 512 513; do
    seed json "depth-$depth" "$(repeat '[' $depth)$(repeat ']' $depth)"
done

# --- keyed archives ------------------------------------------------------------
copy_fixtures archive 'keyed_archive/*' 'malformed/*archive*'
if command -v python3 >/dev/null; then
    # Hand-built archives: cycles, shared objects, deep chains, Foundation classes.
    python3 - "$build/corpus-archive" <<'PY'
import plistlib, sys
out = sys.argv[1]
U = plistlib.UID
def save(name, objects, top=None):
    archive = {"$archiver": "NSKeyedArchiver", "$version": 100000,
               "$top": top or {"root": U(1)}, "$objects": ["$null"] + objects}
    for fmt, suffix in ((plistlib.FMT_BINARY, "bin"), ):
        with open(f"{out}/seed-{name}.{suffix}", "wb") as f:
            f.write(plistlib.dumps(archive, fmt=fmt, sort_keys=False))
cls = lambda name, *supers: {"$classname": name, "$classes": [name, *supers, "NSObject"]}
save("cycle", [{"$class": U(2), "NS.objects": [U(1), U(3)]}, cls("NSMutableArray", "NSArray"), "x"])
save("dict", [{"$class": U(2), "NS.keys": [U(3), U(4)], "NS.objects": [U(5), U(0)]}, cls("NSDictionary"), "k", "l", 1.5])
save("counted", [{"$class": U(2), "NS.count": 1, "NS.object0": U(3), "NS.count0": 4}, cls("NSCountedSet", "NSMutableSet", "NSSet"), 7])
save("ordered", [{"$class": U(2), "NS.object.0": U(3), "NS.object.1": U(1)}, cls("NSOrderedSet"), True])
save("url", [{"$class": U(2), "NS.base": U(3), "NS.relative": U(4)}, cls("NSURL"),
             {"$class": U(2), "NS.base": U(0), "NS.relative": U(5)}, "a/b", "https://example.com/"])
save("value", [{"$class": U(2), "NS.special": 3, "NS.rectval": U(3)}, cls("NSValue"), "{{1, 2}, {3, 4}}"])
save("custom", [{"$class": U(2), "$$escaped": 1, "$0": U(3), "$1": U(0), "date": U(4)}, cls("Custom"), "u",
                {"$class": U(5), "NS.time": 1.0}, cls("NSDate")])
chain = [{"$class": U(1001), "NS.objects": [U(i + 2)]} for i in range(999)] + [{"$class": U(1001), "NS.objects": []}, cls("NSArray")]
save("chain-1000", chain)
PY
fi

# --- detection: every seed of every format ------------------------------------
for reader in binary xml openstep json; do
    for file in "$build/corpus-$reader"/seed-* "$build/corpus-$reader"/fixture-*; do
        [[ -f $file ]] && cp -n "$file" "$build/corpus-detect/$reader-$(basename "$file")"
    done
done

for reader in binary xml openstep json detect archive; do
    echo "corpus-$reader: $(find "$build/corpus-$reader" -type f | wc -l) files"
done
