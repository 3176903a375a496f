import CloudProtocol
import Crypto
import FileSystem
import Foundation
import SystemPackage
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
    /// Who may create accounts.
    public var accountCreation: AccountCreationPolicy
    let creationRate = CreationRateLimit()
    /// Seconds a temporary file in the chunk store must be old before a
    /// sweep removes it (FileSystem's stale age unless a test shortens it).
    public var temporaryGrace: Double = FileDescriptor.staleTemporaryAge

    public init(ledger: Ledger, chunks: any ChunkStore, adminToken: String?, accountCreation: AccountCreationPolicy = .default,
                logger: Logger = Logger(label: "sandbox-cloud")) {
        self.ledger = ledger
        self.accountCreation = accountCreation
        self.chunks = chunks
        self.metrics = CloudMetrics()
        self.logger = logger
        self.adminTokenHash = adminToken.map { Ledger.authHash(Array($0.utf8)) }
    }

    /// Opens the engines `configuration` names and prepares the ledger.
    public static func open(_ configuration: CloudStorageConfiguration, defaultQuota: Int64 = CloudLimits.defaultQuotaBytes,
                            sessionLifetime: Int64 = 3600, adminToken: String?, accountCreation: AccountCreationPolicy = .default,
                            logger: Logger = Logger(label: "sandbox-cloud")) async throws(CloudStorageError) -> CloudService {
        let (chunks, database) = try await configuration.open()
        let ledger = Ledger(database: database, defaultQuota: defaultQuota, sessionLifetime: sessionLifetime)
        try await ledger.prepare()
        return CloudService(ledger: ledger, chunks: chunks, adminToken: adminToken, accountCreation: accountCreation, logger: logger)
    }

    /// Signs a device in and returns its new token (shown once).
    public func signIn(_ request: SignInRequest) async throws(CloudServiceError) -> SignInResponse {
        let authKey = try Self.authKey(request.authKey)
        let account = try CloudNames.normalized(request.account, .account)
        let deviceName = try CloudNames.normalized(request.deviceName, .deviceName)
        let udid = try CloudNames.normalized(request.udid, .udid)
        let token = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let device = try await ledger.signIn(account: account, authKey: authKey, deviceName: deviceName,
                                             udid: udid, tokenHash: Self.tokenHash(token))
        logger.info("device signed in", metadata: ["account": "\(account)", "device": "\(device.deviceID)"])
        return SignInResponse(account: account, deviceID: device.deviceID, token: token)
    }

    /// Creates an account, as ``accountCreation`` allows: `operatorToken`
    /// is the bearer token the request came with, `client` its address
    /// (the rate limit's key).
    public func createAccount(_ request: CreateAccountRequest, operatorToken: String? = nil,
                              client: String = "") async throws(CloudServiceError) -> AccountStatus {
        let isOperator = operatorToken.map(isAdmin(token:)) ?? false
        switch accountCreation {
        case .operatorOnly where !isOperator:
            throw CloudServiceError(.unauthorized, "accounts are created by the operator on this service (its token as Authorization: Bearer …)")
        case .open(let limit) where !isOperator:
            if let wait = creationRate.admit(client: client, limit: limit) {
                var refusal = CloudServiceError(.tooManyRequests, "too many accounts created; try again in \(wait) s")
                refusal.retryAfter = wait
                throw refusal
            }
        default: break
        }
        let authKey = try Self.authKey(request.authKey)
        let account = try CloudNames.normalized(request.account, .account)
        _ = try await ledger.createAccount(name: account, authKey: authKey)
        logger.info("account created", metadata: ["account": "\(account)"])
        return AccountStatus(account: account, quotaBytes: ledger.defaultQuota, usedBytes: 0, chunkCount: 0, devices: [])
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
        guard try await ledger.markStored(row: reservation.row, size: size) else {
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
                    // The ledger no longer counts it; the sweep below, or the next, removes the orphan.
                    logger.warning("could not delete a freed chunk", metadata: ["key": "\(key)", "error": "\(error)"])
                }
            }
            total.chunksFreed += report.chunksFreed
            total.bytesFreed += report.bytesFreed
            total.snapshotsRetired += report.snapshotsRetired
            total.sessionsExpired += report.sessionsExpired
        }
        try await sweep(into: &total)
        metrics.chunksCollected.increment(by: total.chunksFreed)
        if total.chunksFreed > 0 || total.sessionsExpired > 0 {
            logger.info("garbage collected", metadata: ["chunks": "\(total.chunksFreed)", "bytes": "\(total.bytesFreed)"])
        }
        return total
    }

    /// Removes what no ledger row accounts for: objects left by a
    /// collection killed between its commit and its deletes, and the
    /// temporary files of puts killed mid-write once older than
    /// ``temporaryGrace`` (a younger one may be a put at work).
    func sweep(into report: inout GarbageCollectionReport) async throws(CloudServiceError) {
        let keys: [String]
        do { keys = try await chunks.keys(withPrefix: "") } catch { throw CloudServiceError(error) }
        for key in try await ledger.orphans(among: keys) {
            do {
                try await chunks.delete(key)
                report.orphansRemoved += 1
            } catch {
                logger.warning("could not delete an orphaned chunk", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
        do { report.temporariesRemoved = Int64(try await chunks.removeStaleTemporaries(olderThan: temporaryGrace)) } catch {
            throw CloudServiceError(error)
        }
        if report.orphansRemoved > 0 || report.temporariesRemoved > 0 {
            logger.notice("swept the chunk store", metadata: ["orphans": "\(report.orphansRemoved)", "temporaries": "\(report.temporariesRemoved)"])
        }
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

}
