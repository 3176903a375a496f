import CloudProtocol
import Crypto
import Foundation
import Logging

/// The iCloud backup service: the ledger, the chunk store, the counters.
///
/// Stateless between requests: everything it knows is in the ledger and
/// the chunk store, so any number of processes built on one
/// ``CloudStorageConfiguration`` serve as one service.
public struct CloudService: Sendable {
    public let ledger: Ledger
    public let chunks: any ChunkStore
    public let metrics: CloudMetrics
    public var logger: Logger
    /// A keyed hash of the operator's token (quota changes, garbage
    /// collection, `/metrics`); nil turns the operator endpoints off.
    let adminTokenHash: [UInt8]?

    public init(ledger: Ledger, chunks: any ChunkStore, adminToken: String?, logger: Logger = Logger(label: "sandbox-cloud")) {
        self.ledger = ledger
        self.chunks = chunks
        self.metrics = CloudMetrics()
        self.logger = logger
        self.adminTokenHash = adminToken.map { Ledger.authHash(Array($0.utf8)) }
    }

    /// Opens the engines `configuration` names and prepares the ledger.
    public static func open(_ configuration: CloudStorageConfiguration, defaultQuota: Int64 = CloudLimits.defaultQuotaBytes,
                            sessionLifetime: Int64 = 3600, adminToken: String?,
                            logger: Logger = Logger(label: "sandbox-cloud")) async throws(CloudStorageError) -> CloudService {
        let (chunks, database) = try await configuration.open()
        let ledger = Ledger(database: database, defaultQuota: defaultQuota, sessionLifetime: sessionLifetime)
        try await ledger.prepare()
        return CloudService(ledger: ledger, chunks: chunks, adminToken: adminToken, logger: logger)
    }

    /// Signs a device in and returns its new token (shown once).
    public func signIn(_ request: SignInRequest) async throws(CloudServiceError) -> SignInResponse {
        let authKey = try Self.authKey(request.authKey)
        try Self.check(name: request.account, "account")
        try Self.check(name: request.deviceName, "device name")
        try Self.check(name: request.udid, "udid")
        let token = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let device = try await ledger.signIn(account: request.account, authKey: authKey, deviceName: request.deviceName,
                                             udid: request.udid, tokenHash: Self.tokenHash(token))
        logger.info("device signed in", metadata: ["account": "\(request.account)", "device": "\(device.deviceID)"])
        return SignInResponse(account: request.account, deviceID: device.deviceID, token: token)
    }

    /// Creates an account.
    public func createAccount(_ request: CreateAccountRequest) async throws(CloudServiceError) -> AccountStatus {
        let authKey = try Self.authKey(request.authKey)
        try Self.check(name: request.account, "account")
        _ = try await ledger.createAccount(name: request.account, authKey: authKey)
        logger.info("account created", metadata: ["account": "\(request.account)"])
        return AccountStatus(account: request.account, quotaBytes: ledger.defaultQuota, usedBytes: 0, chunkCount: 0, devices: [])
    }

    /// The device a bearer token names.
    public func authenticate(token: String) async throws(CloudServiceError) -> AuthenticatedDevice {
        try await ledger.authenticate(tokenHash: Self.tokenHash(token))
    }

    /// Whether `token` is the operator's.
    public func isAdmin(token: String) -> Bool {
        guard let adminTokenHash else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(adminTokenHash, authenticating: Array(token.utf8), using: Ledger.authHashKey)
    }

    /// Stores one encrypted chunk for an upload session: reserve (the
    /// quota, under the account lock), write the object, mark it stored.
    /// A chunk the account has is not written again.
    public func store(_ chunk: ChunkID, bytes: [UInt8], session: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) -> ChunkStored {
        let size = Int64(bytes.count)
        let reservation: ChunkReservation
        do {
            reservation = try await ledger.reserve(chunk, size: size, session: session, caller: caller)
        } catch where error.code == .quotaExceeded {
            metrics.quotaRefusals.increment()
            logger.notice("upload over quota", metadata: ["account": "\(caller.account)", "needed": "\(size)"])
            throw error
        }
        if reservation.alreadyStored {
            metrics.chunksDeduplicated.increment()
            metrics.bytesDeduplicated.increment(by: size)
            return ChunkStored(chunk: chunk, bytes: size, deduplicated: true, usedBytes: reservation.usedBytes)
        }
        let key = ChunkKey.make(account: caller.accountID, chunk: chunk.hex, generation: reservation.row)
        do { try await chunks.put(key, bytes) } catch { throw CloudServiceError(error) }
        guard try await ledger.markStored(row: reservation.row) else {
            try? await chunks.delete(key)
            throw CloudServiceError(.conflict, "the session expired while the chunk was sent; open a new session")
        }
        metrics.chunksReceived.increment()
        metrics.bytesReceived.increment(by: size)
        return ChunkStored(chunk: chunk, bytes: size, deduplicated: false, usedBytes: reservation.usedBytes)
    }

    /// One chunk of the caller's account.
    public func read(_ chunk: ChunkID, caller: AuthenticatedDevice) async throws(CloudServiceError) -> [UInt8] {
        let key = try await ledger.objectKey(of: chunk, caller: caller)
        let bytes: [UInt8]
        do { bytes = try await chunks.get(key) } catch { throw CloudServiceError(error) }
        metrics.chunksServed.increment()
        metrics.bytesServed.increment(by: Int64(bytes.count))
        return bytes
    }

    /// Commits a snapshot.
    public func commit(_ request: CommitRequest, session: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) -> SnapshotSummary {
        guard request.chunks.count <= CloudLimits.maximumChunksPerRequest else {
            throw CloudServiceError(.tooLarge, "a snapshot names at most \(CloudLimits.maximumChunksPerRequest) chunks")
        }
        guard request.files >= 0, request.bytes >= 0 else { throw CloudServiceError(.badRequest, "files and bytes are not negative") }
        let summary = try await ledger.commit(request, session: session, caller: caller)
        metrics.snapshotsCommitted.increment()
        logger.info("snapshot committed", metadata: ["account": "\(caller.account)", "device": "\(caller.deviceID)",
                                                     "snapshot": "\(summary.snapshotID)", "chunks": "\(summary.chunkCount)"])
        return summary
    }

    /// Collects garbage in every account, one short transaction each, then
    /// deletes the freed objects. Uploads go on meanwhile.
    public func collectGarbage() async throws(CloudServiceError) -> GarbageCollectionReport {
        var total = GarbageCollectionReport()
        for account in try await ledger.accountIDs() {
            let (report, keys) = try await ledger.collectGarbage(accountID: account)
            for key in keys {
                do { try await chunks.delete(key) } catch {
                    // The ledger no longer counts it; a later sweep finds the orphan.
                    logger.warning("could not delete a freed chunk", metadata: ["key": "\(key)", "error": "\(error)"])
                }
            }
            total.chunksFreed += report.chunksFreed
            total.bytesFreed += report.bytesFreed
            total.snapshotsRetired += report.snapshotsRetired
            total.sessionsExpired += report.sessionsExpired
        }
        metrics.chunksCollected.increment(by: total.chunksFreed)
        if total.chunksFreed > 0 || total.sessionsExpired > 0 {
            logger.info("garbage collected", metadata: ["chunks": "\(total.chunksFreed)", "bytes": "\(total.bytesFreed)"])
        }
        return total
    }

    /// The `/metrics` text.
    public func metricsText() async throws(CloudServiceError) -> String {
        metrics.exposition(try await ledger.totals())
    }

    static func tokenHash(_ token: String) -> [UInt8] { [UInt8](SHA256.hash(data: Array(token.utf8))) }

    static func authKey(_ base64: String) throws(CloudServiceError) -> [UInt8] {
        guard let data = Data(base64Encoded: base64), data.count == 32 else {
            throw CloudServiceError(.badRequest, "authKey must be 32 bytes in base64")
        }
        return [UInt8](data)
    }

    /// Names are 1 to 128 characters (Unicode scalars, as JSON Schema's
    /// `maxLength` counts them) without control characters.
    static func check(name: String, _ what: String) throws(CloudServiceError) {
        guard !name.isEmpty, name.unicodeScalars.count <= 128, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CloudServiceError(.badRequest, "the \(what) must be 1 to 128 characters without control characters")
        }
    }
}
