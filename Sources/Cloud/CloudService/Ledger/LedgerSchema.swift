/// The ledger's tables, in the SQL both engines accept.
///
/// - `accounts.used` is the sum of the sizes of the account's `chunks`
///   rows, pending uploads included; only transactions that first lock the
///   account row change either, so the quota check and the reservation are
///   one step for every server process.
/// - A `chunks` row's `id` is also the generation in its object key: a
///   chunk freed and later sent again gets a new row, hence a new key.
/// - `session_chunks` holds an open upload session's chunks against
///   garbage collection; `snapshot_chunks` a snapshot's.
/// - `app_toggles` lists the apps whose backup is off, per device.
enum LedgerSchema {
    static func statements(_ dialect: LedgerDialect) -> [String] {
        let key = dialect.autoIncrementPrimaryKey
        let blob = dialect.blobType
        return [
            """
            CREATE TABLE IF NOT EXISTS accounts (id \(key), name TEXT NOT NULL UNIQUE, auth_hash \(blob) NOT NULL,
                quota BIGINT NOT NULL, used BIGINT NOT NULL, created BIGINT NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS devices (id \(key), account_id BIGINT NOT NULL, name TEXT NOT NULL, udid TEXT NOT NULL,
                token_hash \(blob) NOT NULL UNIQUE, created BIGINT NOT NULL, UNIQUE (account_id, udid))
            """,
            """
            CREATE TABLE IF NOT EXISTS app_toggles (device_id BIGINT NOT NULL, bundle_id TEXT NOT NULL,
                PRIMARY KEY (device_id, bundle_id))
            """,
            """
            CREATE TABLE IF NOT EXISTS chunks (id \(key), account_id BIGINT NOT NULL, chunk_id TEXT NOT NULL,
                size BIGINT NOT NULL, state TEXT NOT NULL, created BIGINT NOT NULL, UNIQUE (account_id, chunk_id))
            """,
            """
            CREATE TABLE IF NOT EXISTS sessions (id \(key), account_id BIGINT NOT NULL, device_id BIGINT NOT NULL,
                touched BIGINT NOT NULL, state TEXT NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS session_chunks (session_id BIGINT NOT NULL, chunk_row BIGINT NOT NULL,
                PRIMARY KEY (session_id, chunk_row))
            """,
            "CREATE INDEX IF NOT EXISTS session_chunks_row ON session_chunks (chunk_row)",
            """
            CREATE TABLE IF NOT EXISTS snapshots (id \(key), account_id BIGINT NOT NULL, device_id BIGINT NOT NULL,
                created BIGINT NOT NULL, manifest TEXT NOT NULL, files BIGINT NOT NULL, bytes BIGINT NOT NULL,
                chunk_count BIGINT NOT NULL, state TEXT NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS snapshot_chunks (snapshot_id BIGINT NOT NULL, chunk_row BIGINT NOT NULL,
                PRIMARY KEY (snapshot_id, chunk_row))
            """,
            "CREATE INDEX IF NOT EXISTS snapshot_chunks_row ON snapshot_chunks (chunk_row)",
            "CREATE INDEX IF NOT EXISTS snapshots_device ON snapshots (device_id, state)",
        ]
    }
}
