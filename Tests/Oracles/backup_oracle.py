#!/usr/bin/env python3
"""Independent iOS-backup readers for Sandbox's interop tests.

Usage:
  backup_oracle.py read DIR [--password PW] [--tools iosbackup,pyiosbackup,mvt,iphone_backup_decrypt]

DIR is one backup (the `<udid>` directory holding Manifest.db). Each named tool
opens it on its own and reports what it sees. Output, one JSON object:
  {tool: {"files": {"<domain>/<relativePath>": entry}, "info": {...}}}
where an entry is {"flags": 1|2|4, "size": int or null, "sha1": hex or null}.
"sha1" is the SHA-1 of the bytes the tool gave back for a regular file, null when
the tool cannot give content (mvt lists rows only) or gave a folder instead
(iOSbackup's quirk for 0-byte files in plain backups: then "folder": true).
A tool that fails gets {"error": "..."} instead; the Swift test decides.
Exit status 2 if a package is missing (the tests must fail, not skip).
"""
import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import iOSbackup
    import iphone_backup_decrypt
    import pyiosbackup
except ImportError as error:  # CI installs Tests/Oracles/requirements.txt
    print(f"missing oracle package: {error}", file=sys.stderr)
    sys.exit(2)

TOOLS = ["iosbackup", "pyiosbackup", "mvt", "iphone_backup_decrypt"]


def sha1(data):
    return hashlib.sha1(data).hexdigest()


def key(domain, relative_path):
    return f"{domain}/{relative_path}"


def read_iosbackup(directory, password):
    backup = iOSbackup.iOSbackup(udid=directory.name, backuproot=str(directory.parent),
                                 cleartextpassword=password)
    files = {}
    scratch = tempfile.mkdtemp(prefix="iosbackup-oracle-")
    try:
        for index, row in enumerate(backup.getBackupFilesList()):
            entry = {"flags": row["flags"], "size": None, "sha1": None}
            if row["flags"] == 1:
                manifest_entry = {"manifest": row["file"], "fileID": row["fileID"],
                                  "domain": row["domain"], "relativePath": row["relativePath"]}
                copy = backup.getFileDecryptedCopy(manifestEntry=manifest_entry, targetName=f"f{index}",
                                                   targetFolder=scratch)
                path = copy["decryptedFilePath"]
                if os.path.isdir(path):
                    entry["folder"] = True
                else:
                    data = Path(path).read_bytes()
                    entry["size"] = len(data)
                    entry["sha1"] = sha1(data)
            files[key(row["domain"], row["relativePath"])] = entry
        info = iOSbackup.iOSbackup.getDeviceBasicInfo(udid=directory.name, backuproot=str(directory.parent)) or {}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        backup.close()
    return {"files": files, "info": {k: str(v) for k, v in info.items()}}


def read_pyiosbackup(directory, password):
    backup = pyiosbackup.Backup.from_path(directory, password=password or "")
    files = {}
    for entry in backup.iter_entries():
        flags = 1 if entry.is_file() else 2 if entry.is_dir() else 4
        item = {"flags": flags, "size": None, "sha1": None}
        if flags == 1:
            data = entry.read_bytes()
            item["size"] = len(data)
            item["sha1"] = sha1(data)
        files[key(entry.domain, entry.relative_path)] = item
    return {"files": files, "info": {"encrypted": bool(backup.is_encrypted),
                                     "ios_version": str(backup.ios_version),
                                     "target_identifier": str(backup.target_identifier)}}


def read_iphone_backup_decrypt(directory, password):
    backup = iphone_backup_decrypt.EncryptedBackup(backup_directory=str(directory), passphrase=password or "")
    files = {}
    with backup.manifest_db_cursor() as cursor:
        rows = cursor.execute("SELECT fileID, domain, relativePath, flags FROM Files").fetchall()
    for file_id, domain, relative_path, flags in rows:
        item = {"flags": flags, "size": None, "sha1": None}
        if flags == 1:
            data = backup.extract_file_as_bytes(relative_path, domain_like=domain)
            item["size"] = len(data)
            item["sha1"] = sha1(data)
        files[key(domain, relative_path)] = item
    return {"files": files, "info": {}}


def read_mvt(directory, password):
    if password:
        raise ValueError("check-backup reads plain backups; decrypt first")
    output = tempfile.mkdtemp(prefix="mvt-oracle-")
    try:
        command = ["mvt-ios", "--disable-update-check", "--disable-indicator-update-check",
                   "check-backup", "--output", output, str(directory)]
        run = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            raise RuntimeError(f"mvt-ios exited {run.returncode}: {run.stderr[-2000:]}{run.stdout[-2000:]}")
        manifest = json.loads(Path(output, "manifest.json").read_text())
        files = {}
        for record in manifest:
            flags = {"file": 1, "directory": 2}.get(record.get("type"), record.get("flags"))
            size = record.get("size")
            files[key(record["domain"], record["relative_path"])] = {
                "flags": flags, "size": int(size) if isinstance(size, (int, str)) and str(size).isdigit() else None,
                "sha1": None}
        info_path = Path(output, "backup_info.json")
        info = json.loads(info_path.read_text()) if info_path.exists() else {}
        return {"files": files, "info": {k: str(v) for k, v in info.items()}}
    finally:
        shutil.rmtree(output, ignore_errors=True)


READERS = {
    "iosbackup": read_iosbackup,
    "pyiosbackup": read_pyiosbackup,
    "mvt": read_mvt,
    "iphone_backup_decrypt": read_iphone_backup_decrypt,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["read"])
    parser.add_argument("directory")
    parser.add_argument("--password")
    parser.add_argument("--tools", default=",".join(TOOLS))
    arguments = parser.parse_args()
    directory = Path(arguments.directory).resolve()
    result = {}
    for tool in arguments.tools.split(","):
        try:
            result[tool] = READERS[tool](directory, arguments.password)
        except Exception as error:  # report, let the Swift test decide
            result[tool] = {"error": f"{type(error).__name__}: {error}"}
    json.dump(result, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
