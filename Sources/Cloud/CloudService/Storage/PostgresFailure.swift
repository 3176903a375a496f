import CodedErrors
import PostgresNIO

/// A postgres-nio failure turned into a ``CloudStorageError``, keeping the
/// server's SQLSTATE so the transaction loop can tell a retryable conflict
/// from a real failure.
struct PostgresFailure: Error, Sendable {
    /// The error the ledger sees.
    var error: CloudStorageError
    /// The server's five-character SQLSTATE, when the server answered.
    var sqlState: String?

    /// SQLSTATEs after which running the whole transaction again can
    /// succeed: `serialization_failure` and `deadlock_detected`.
    static let retryableStates: Set<String> = ["40001", "40P01"]

    /// Whether the server aborted the transaction for a conflict with
    /// another one, so the whole body may run again.
    var isRetryable: Bool { sqlState.map(Self.retryableStates.contains) ?? false }

    /// The operation name of opening a connection.
    static let connecting = "connect"

    /// Classifies `error`, thrown while doing `operation` against the
    /// server at `endpoint` (`host:port`).
    init(_ error: any Error, operation: String, endpoint: String) {
        if let error = error as? CloudStorageError {
            self.init(error: error)
        } else if let error = error as? PSQLError {
            self.init(psql: error, operation: operation, endpoint: endpoint)
            self.error.underlying = error
        } else if error is CancellationError {
            self.init(error: CloudStorageError(.unavailable, operation, "cancelled"))
        } else if let error = error as? PostgresDecodingError {
            self.init(error: CloudStorageError(.protocolError, operation, String(reflecting: error), underlying: error))
        } else {
            // NIO's own errors (IOError, ChannelError, NIOConnectionError)
            // mean the socket did not work; the pool's (ConnectionPoolError,
            // in a module postgres-nio does not export) that it is shut
            // down or gave up connecting.
            self.init(error: CloudStorageError(.unavailable, operation, "\(endpoint): \(error)", underlying: error))
        }
    }

    private init(error: CloudStorageError, sqlState: String? = nil) {
        self.error = error
        self.sqlState = sqlState
    }

    private init(psql error: PSQLError, operation: String, endpoint: String) {
        if let info = error.serverInfo, let state = info[.sqlState] {
            // While connecting, say where: the message alone does not.
            let place = operation == Self.connecting ? "\(endpoint): " : ""
            var detail = "\(place)\(info[.message] ?? "server error") (SQLSTATE \(state))"
            if let more = info[.detail] { detail += ": \(more)" }
            self.init(error: CloudStorageError(Self.code(forSQLState: state), operation, detail), sqlState: state)
            return
        }
        let underlying = error.underlying.map { ": \($0)" } ?? ""
        switch error.code {
        case .connectionError:
            self.init(error: CloudStorageError(.unavailable, operation, "cannot connect to \(endpoint)\(underlying)"))
        case .serverClosedConnection, .uncleanShutdown:
            self.init(error: CloudStorageError(.unavailable, operation, "\(endpoint) closed the connection\(underlying)"))
        case .clientClosedConnection, .poolClosed:
            self.init(error: CloudStorageError(.unavailable, operation, "the connection to \(endpoint) is closed"))
        case .queryCancelled:
            self.init(error: CloudStorageError(.unavailable, operation, "cancelled"))
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            let detail = "\(endpoint) refused the authentication: \(error.code)\(underlying)"
            self.init(error: CloudStorageError(.refused, operation, detail))
        case .sslUnsupported:
            let detail = "\(endpoint) does not offer TLS, which the configuration requires"
            self.init(error: CloudStorageError(.refused, operation, detail))
        default:
            self.init(error: CloudStorageError(.protocolError, operation, "\(error.code)\(underlying)"))
        }
    }

    /// The ledger's code for a server error, by SQLSTATE class
    /// (PostgreSQL manual, appendix A).
    static func code(forSQLState state: String) -> CloudStorageError.Code {
        switch state {
        case "53100": return .full  // disk_full
        case "53200", "53300": return .unavailable  // out_of_memory, too_many_connections
        case "57014": return .unavailable  // query_canceled (statement_timeout)
        case "3D000": return .notFound  // the database does not exist
        case "42501": return .refused  // insufficient_privilege
        default: break
        }
        switch state.prefix(2) {
        case "08", "57": return .unavailable  // connection exception, operator intervention (shutdown)
        case "28": return .refused  // invalid authorization: wrong password, unknown role, pg_hba
        case "23": return .constraint  // integrity constraint violation: unique, foreign key, not null, check
        case "22": return .constraint  // data exception: a value the column cannot hold
        case "40": return .unavailable  // transaction rollback: conflicts, once retries are spent
        case "53": return .full  // insufficient resources
        default: return .protocolError  // syntax, undefined objects: the SQL is wrong
        }
    }
}

/// postgres-nio's error keeps the error beneath it (a socket's, a TLS
/// handshake's) as its `underlying`: a cause chain walks on through it.
extension PSQLError: CausedError {}
