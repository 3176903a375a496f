import Foundation

/// How a ``BackupWriter`` writes a backup.
public struct BackupOptions: Sendable {
    /// The password that encrypts the backup, or nil for a plain one.
    public var password: String?
    /// The key-derivation cost of a new encrypted backup's keybag (iOS's by default).
    public var keyDerivation: BackupKeyDerivation
    /// The owner and group recorded for every file (iOS app data belongs to `mobile`, 501).
    public var userID: Int64
    /// See ``userID``.
    public var groupID: Int64
    /// How many files are copied (hashed, encrypted) at once.
    public var concurrency: Int
    /// Whether the backup is flushed to disk before it replaces the previous
    /// one, so that a power cut leaves one complete backup.
    public var flushesToDisk: Bool
    /// Copies every file even when the previous backup holds it unchanged.
    public var forcesFullBackup: Bool

    /// Creates options; the defaults make a plain, incremental, durable backup.
    public init(password: String? = nil, keyDerivation: BackupKeyDerivation = .iOS, userID: Int64 = 501, groupID: Int64 = 501,
                concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, flushesToDisk: Bool = true,
                forcesFullBackup: Bool = false) {
        self.password = password
        self.keyDerivation = keyDerivation
        self.userID = userID
        self.groupID = groupID
        self.concurrency = max(1, concurrency)
        self.flushesToDisk = flushesToDisk
        self.forcesFullBackup = forcesFullBackup
    }
}

/// What a finished backup did.
public struct BackupSummary: Sendable, Hashable {
    /// The backup directory (`…/<UDID>`).
    public var directory: URL
    /// Whether a password encrypted it.
    public var isEncrypted: Bool
    /// Whether a previous backup's payloads were reused.
    public var isIncremental: Bool
    /// Regular files, directories and symbolic links recorded.
    public var files: Int
    /// See ``files``.
    public var directories: Int
    /// See ``files``.
    public var symbolicLinks: Int
    /// Payloads read from the sources and written (new or changed files).
    public var payloadsCopied: Int
    /// Payloads taken over from the previous backup without reading the file.
    public var payloadsReused: Int
    /// Bytes of file contents copied.
    public var bytesCopied: Int64
    /// Bytes of file contents in the whole backup.
    public var bytesTotal: Int64
    /// Wall-clock time the backup took, in seconds.
    public var seconds: Double
    /// Items left out because they changed between the walk and the read
    /// (swapped for a link, a directory or another file): never read
    /// through what replaced them.
    public var skippedFiles: [BackupSkippedFile] = []
}

/// How far a running backup is, for progress bars.
public struct BackupProgress: Sendable, Hashable {
    /// Files whose payload is in place (copied or reused).
    public var completedFiles: Int
    /// Regular files in the backup.
    public var totalFiles: Int
    /// Bytes of those files in place.
    public var completedBytes: Int64
    /// Bytes of all regular files.
    public var totalBytes: Int64
}
