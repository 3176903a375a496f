import Foundation

/// Where the PostgreSQL ledger lives and how ``PostgresLedgerDatabase``
/// talks to it.
///
/// Made field by field, or from a URL in libpq's form:
///
/// ```swift
/// let configuration = try PostgresLedgerConfiguration(
///     url: "postgres://ledger:secret@127.0.0.1:5432/cloud?pool_size=16")
/// ```
///
/// The description never shows the password, so a configuration can be
/// logged.
public struct PostgresLedgerConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// How a transaction isolates itself from concurrent ones.
    ///
    /// The ledger is written for ``readCommitted``: every transaction that
    /// changes an account's usage locks the account row first (`SELECT …
    /// FOR UPDATE`), which serializes exactly the transactions that must
    /// be serialized. The stricter levels are there for tests and for
    /// operators who want them; their serialization failures are retried.
    public enum IsolationLevel: String, Sendable, Hashable, CaseIterable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    /// Whether the connection is encrypted (libpq's `sslmode`).
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Plain TCP: loopback, or a network the operator trusts.
        case disable
        /// TLS when the server offers it, plain TCP otherwise.
        case prefer
        /// TLS or no connection.
        case require
    }

    public var host: String
    public var port: Int
    public var user: String
    /// The password; empty for trust or peer authentication.
    public var password: String
    public var database: String
    /// The most connections the pool opens; one transaction holds one
    /// connection from `BEGIN` to `COMMIT`, so this bounds concurrent
    /// transactions per server process.
    public var poolSize: Int
    public var isolationLevel: IsolationLevel
    public var tls: TLSMode
    /// How long opening one connection may take before it counts as a
    /// failure.
    public var connectTimeout: Duration
    /// How many times a transaction the server aborted for a
    /// serialization failure (SQLSTATE 40001) or a deadlock (40P01) is run
    /// again before the failure is returned.
    public var maximumRetries: Int

    /// The port PostgreSQL listens on unless told otherwise.
    public static let defaultPort = 5432
    /// PostgreSQL's default `max_connections` is 100; several server
    /// processes share it.
    public static let defaultPoolSize = 10

    public init(
        host: String, port: Int = defaultPort, user: String, password: String = "", database: String,
        poolSize: Int = defaultPoolSize, isolationLevel: IsolationLevel = .readCommitted, tls: TLSMode = .disable,
        connectTimeout: Duration = .seconds(10), maximumRetries: Int = 8
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.poolSize = poolSize
        self.isolationLevel = isolationLevel
        self.tls = tls
        self.connectTimeout = connectTimeout
        self.maximumRetries = maximumRetries
    }

    /// Reads `postgres://user:password@host:port/database` (or
    /// `postgresql://…`). The password may be left out; user and password
    /// are percent-decoded. Two query parameters are understood:
    /// `sslmode` (`disable`, `prefer`, `require`) and `pool_size`; any
    /// other is refused rather than silently ignored.
    public init(url text: String) throws(PostgresLedgerURLError) {
        guard let components = URLComponents(string: text) else {
            throw PostgresLedgerURLError(.malformed, text, "not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            let found = components.scheme.map { "'\($0)'" } ?? "missing"
            throw PostgresLedgerURLError(.unsupportedScheme, text, "the scheme is \(found); expected postgres:// or postgresql://")
        }
        // URLComponents keeps IPv6 literals in brackets on some platforms.
        let host = (components.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty else {
            throw PostgresLedgerURLError(.missingHost, text, "no host after '//'")
        }
        guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
            throw PostgresLedgerURLError(.missingUser, text, "no user before '@'")
        }
        let port = components.port ?? Self.defaultPort
        guard (1...65535).contains(port) else {
            throw PostgresLedgerURLError(.badPort, text, "port \(port) is outside 1…65535")
        }
        let database = String(components.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresLedgerURLError(.missingDatabase, text, "the path must be one database name, as in /ledger")
        }
        self.init(host: host, port: port, user: user, password: components.password?.removingPercentEncoding ?? "",
                  database: database)
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw PostgresLedgerURLError(.badParameter, text, "sslmode '\(value)' is not one of disable, prefer, require")
                }
                tls = mode
            case "pool_size":
                guard let size = Int(value), size >= 1 else {
                    throw PostgresLedgerURLError(.badParameter, text, "pool_size '\(value)' is not a whole number of at least 1")
                }
                poolSize = size
            default:
                throw PostgresLedgerURLError(.badParameter, text, "unknown parameter '\(item.name)'; known: sslmode, pool_size")
            }
        }
    }

    /// `host:port`, as failures report where they could not connect.
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The URL without the password.
    public var description: String {
        "postgres://\(user)\(password.isEmpty ? "" : ":***")@\(endpoint)/\(database)"
    }
}

/// A PostgreSQL URL that ``PostgresLedgerConfiguration/init(url:)`` cannot
/// use: what is wrong with it (``Code``), the URL with its password hidden,
/// and why.
public struct PostgresLedgerURLError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Not parseable as a URL at all.
        case malformed
        /// Not `postgres://` or `postgresql://`.
        case unsupportedScheme
        case missingHost
        case missingUser
        case missingDatabase
        case badPort
        /// A query parameter that is unknown or has a bad value.
        case badParameter
    }

    public var code: Code
    /// The URL, its password replaced by `***`.
    public var url: String
    public var detail: String

    public init(_ code: Code, _ url: String, _ detail: String) {
        self.code = code
        self.url = Self.hidingPassword(in: url)
        self.detail = detail
    }

    public var description: String { "bad PostgreSQL URL \(url): \(detail) (\(code.rawValue))" }

    /// `scheme://user:***@…` for `scheme://user:secret@…`; an error
    /// message must not carry the secret into logs.
    static func hidingPassword(in url: String) -> String {
        guard let schemeEnd = url.range(of: "://"),
              let at = url[schemeEnd.upperBound...].firstIndex(of: "@"),
              let colon = url[schemeEnd.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }
}
