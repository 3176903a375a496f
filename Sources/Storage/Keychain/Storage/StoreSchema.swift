import GRDB

/// The store's tables, created and upgraded by GRDB's migrator.
///
/// `device` is one row: the key salt, the secret check and the lock state.
/// `item` holds one row per keychain item. Attributes are stored in the clear
/// so queries can match them; the data is sealed (see ``ItemSealing``).
/// `identity` is the canonical encoding of the class, access group and
/// primary-key attributes, so the database itself refuses duplicates, even
/// between processes.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
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
                """)
        }
        migrator.registerMigration("v2: seals bound to class and access group") { db in
            // Rows written from now on are sealed with version 2 of the
            // binding (the column's default); rows already there are marked
            // 1 and sealed again when the store is opened with its secret
            // (``KeychainStore/resealLegacyItems(_:)``).
            try db.execute(sql: """
                ALTER TABLE item ADD COLUMN sealVersion INTEGER NOT NULL DEFAULT 2;
                UPDATE item SET sealVersion = 1;
                """)
        }
        return migrator
    }
}
