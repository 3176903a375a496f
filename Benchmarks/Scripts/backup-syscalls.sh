#!/usr/bin/env bash
# System calls per regular file of `sandbox backup create` on a container of
# 10,000 files of 200 bytes (strace -c -f), and the wall time of a second,
# untraced full backup. strace 6.1 leaves out of its summary the calls it
# has no name for: getxattrat (Linux 6.13), one per file here, is not counted.
# usage: Benchmarks/Scripts/backup-syscalls.sh SANDBOX_BINARY LABEL
set -euo pipefail
bin=$1; label=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/backup-syscalls-XXXX")
export SANDBOX_HOME=$work/home
"$bin" device create dev >/dev/null
mkdir -p $work/App.app
cat > $work/App.app/Info.plist <<PL
<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.sc</string><key>CFBundleVersion</key><string>1</string><key>CFBundleExecutable</key><string>App</string></dict></plist>
PL
printf '#!/bin/sh\n' > $work/App.app/App; chmod +x $work/App.app/App
"$bin" install $work/App.app --device dev >/dev/null
data=$("$bin" container com.example.sc data --device dev)
python3 - "$data" <<'PY'
import os,sys
d=sys.argv[1]
for i in range(100):
    p=os.path.join(d,"Documents",f"d{i:03d}"); os.makedirs(p,exist_ok=True)
    for j in range(100):
        with open(os.path.join(p,f"f{j:03d}.txt"),"wb") as f: f.write(os.urandom(200))
PY
strace -f -c -o $work/strace.txt "$bin" backup create --device dev --to $work/backups >/dev/null
start=$(date +%s.%N); "$bin" backup create --device dev --to $work/backups2 >/dev/null; end=$(date +%s.%N)
python3 - $work/strace.txt "$label" $start $end <<'PY'
import sys,re
rows={}
for line in open(sys.argv[1]):
    p=line.split()
    if len(p)>=5 and p[-1].isidentifier() and p[-1]!="total" and p[0][0].isdigit():
        calls=int(p[3]); rows[p[-1]]=calls
total=sum(rows.values())
io=sum(v for k,v in rows.items() if k in ("read","write","pread64","pwrite64","readv","writev","copy_file_range","sendfile"))
print(f"{sys.argv[2]}: {total} calls, {total-io} besides reading and writing, {(total-io)/10000:.2f} per file; wall {float(sys.argv[4])-float(sys.argv[3]):.2f} s")
for k,v in sorted(rows.items(), key=lambda x:-x[1])[:22]: print(f"  {k:18} {v:7} {v/10000:.2f}/file")
PY
rm -rf $work
