#!/usr/bin/env python3
"""Writes a keychain store as version 1 of the store wrote it (Tests/KeychainTests).

Version 1 is the code before commit 8ebb16d ("schema v2, sealVersion"): GRDB's migrator had run only
the migration "v1" (the tables below, no sealVersion column), and each item's data was sealed with
AES-GCM under its accessibility class's key, authenticating only "Sandbox keychain item v1 <pdmn> <id>",
so the access group and the class were not bound to the data. This writer is independent of the
Swift code: it follows the old source (StoreSchema.swift, ClassKeys.swift, ItemSealing.swift and
StoredItem.identity at 5a08dbb) with Python's sqlite3 and the `cryptography` package.

Usage:
  keychain_v1_store.py write DB SECRET_HEX ITEMS_JSON
      create the store at DB for the device secret; ITEMS_JSON is a list of
      {"id", "class", "group", "pdmn", "data_hex", optional "service", "account", "server", "protocol",
       "port", "path", "label", "tag_hex"}. Prints nothing.
  keychain_v1_store.py rows DB SECRET_HEX
      print a JSON list of every item row: {"id", "group", "class", "pdmn", "seal_version" (null without
      the column), "sealed_hex", "v1_opens", "v2_data_hex" (the data opened with version 2's binding,
      or null)}
Exit status 2 if `cryptography` is missing (the tests must fail, not skip).
"""
import json
import os
import sqlite3
import struct
import sys

try:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
except ImportError:
    print("the cryptography package is missing", file=sys.stderr)
    sys.exit(2)

# StoreSchema's migration "v1", as the version-1 code created it.
SCHEMA_V1 = """
CREATE TABLE device (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    salt BLOB NOT NULL,
    secretCheck BLOB NOT NULL,
    isLocked INTEGER NOT NULL,
    unlockedSinceBoot INTEGER NOT NULL,
    passcodeSet INTEGER NOT NULL
);
CREATE TABLE item (
    rowOrder INTEGER PRIMARY KEY AUTOINCREMENT,
    persistentID TEXT NOT NULL UNIQUE,
    class TEXT NOT NULL,
    accessGroup TEXT NOT NULL,
    accessibility TEXT NOT NULL,
    identity BLOB NOT NULL UNIQUE,
    service TEXT,
    account TEXT,
    server TEXT,
    protocol TEXT,
    port INTEGER,
    path TEXT,
    label TEXT,
    applicationTag BLOB,
    creationDate REAL NOT NULL,
    modificationDate REAL NOT NULL,
    sealedData BLOB NOT NULL
);
CREATE INDEX item_by_class_group ON item (class, accessGroup);
"""

PRIMARY_KEYS = {
    "genp": ["service", "account"],
    "inet": ["server", "protocol", "port", "path", "account"],
    "keys": ["tag", "label"],
}


def derive(secret, salt, info):
    """ClassKeys.derive: HKDF-SHA256, 32 bytes."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info.encode()).derive(secret)


def class_key(secret, salt, pdmn):
    return derive(secret, salt, "Sandbox keychain class key v1 " + pdmn)


def identity(item):
    """StoredItem.identity: class, group and primary key, each as a 4-byte big-endian length and its bytes."""
    parts = [item["class"].encode(), item["group"].encode()]
    for name in PRIMARY_KEYS[item["class"]]:
        if name == "port":
            parts.append(str(item.get("port", 0)).encode())
        elif name == "tag":
            parts.append(bytes.fromhex(item.get("tag_hex", "")))
        else:
            parts.append(item.get(name, "").encode())
    return b"".join(struct.pack(">I", len(part)) + part for part in parts)


def seal_v1(secret, salt, item):
    """ItemSealing.seal of version 1: nonce, ciphertext and tag (swift-crypto's combined form)."""
    nonce = os.urandom(12)
    aad = ("Sandbox keychain item v1 %s %s" % (item["pdmn"], item["id"])).encode()
    return nonce + AESGCM(class_key(secret, salt, item["pdmn"])).encrypt(nonce, bytes.fromhex(item["data_hex"]), aad)


def v2_associated_data(row):
    """ItemSealing.Binding.associatedData of version 2 (to check the resealed rows independently)."""
    text = "Sandbox keychain item v2"
    for field in (row["class"], row["pdmn"], row["id"], row["group"]):
        text += " %d:%s" % (len(field.encode()), field)
    return text.encode()


def try_open(key, sealed, aad):
    try:
        return AESGCM(key).decrypt(sealed[:12], sealed[12:], aad)
    except Exception:
        return None


def write(path, secret, items):
    connection = sqlite3.connect(path)
    # GRDB's DatabasePool keeps its stores in WAL mode.
    connection.execute("PRAGMA journal_mode=WAL")
    connection.executescript(SCHEMA_V1)
    connection.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    connection.execute("INSERT INTO grdb_migrations VALUES ('v1')")
    salt = os.urandom(32)
    check = derive(secret, salt, "Sandbox keychain secret check v1")
    connection.execute("INSERT INTO device VALUES (1, ?, ?, 0, 1, 0)", (salt, check))
    for item in items:
        connection.execute(
            "INSERT INTO item (persistentID, class, accessGroup, accessibility, identity, service, account, server, "
            "protocol, port, path, label, applicationTag, creationDate, modificationDate, sealedData) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (item["id"], item["class"], item["group"], item["pdmn"], identity(item), item.get("service"),
             item.get("account"), item.get("server"), item.get("protocol"), item.get("port"), item.get("path"),
             item.get("label"), bytes.fromhex(item["tag_hex"]) if "tag_hex" in item else None,
             1_700_000_000.0, 1_700_000_000.0, seal_v1(secret, salt, item)))
    connection.commit()
    connection.close()


def rows(path, secret):
    connection = sqlite3.connect(path)
    salt = connection.execute("SELECT salt FROM device").fetchone()[0]
    columns = [row[1] for row in connection.execute("PRAGMA table_info(item)")]
    version = "sealVersion" if "sealVersion" in columns else "NULL"
    result = []
    query = "SELECT persistentID, accessGroup, class, accessibility, %s, sealedData FROM item ORDER BY rowOrder" % version
    for identifier, group, item_class, pdmn, seal_version, sealed in connection.execute(query):
        row = {"id": identifier, "group": group, "class": item_class, "pdmn": pdmn, "seal_version": seal_version,
               "sealed_hex": sealed.hex()}
        key = class_key(secret, salt, pdmn)
        row["v1_opens"] = try_open(key, sealed, ("Sandbox keychain item v1 %s %s" % (pdmn, identifier)).encode()) is not None
        opened = try_open(key, sealed, v2_associated_data(row))
        row["v2_data_hex"] = opened.hex() if opened is not None else None
        result.append(row)
    connection.close()
    print(json.dumps(result))


def main():
    command, path, secret = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
    if command == "write":
        write(path, secret, json.loads(sys.argv[4]))
    elif command == "rows":
        rows(path, secret)
    else:
        print("unknown command " + command, file=sys.stderr)
        sys.exit(64)


if __name__ == "__main__":
    main()
