import Foundation

/// What a restore did: the files written, the files it refused to write
/// because their payload was damaged or their path unsafe, and the rows it
/// left out by rule. (The keychain's outcome is the `Device` module's.)
///
/// A damaged payload is never restored, not even partly: it is listed in
/// ``problems`` and the file is absent from the target.
public struct RestoreReport: Sendable, Hashable {
    /// The domains restored.
    public var domains: [String]
    /// Regular files written.
    public var restoredFiles: Int
    /// Bytes of those files.
    public var restoredBytes: Int64
    /// One entry per file whose payload is missing, truncated, altered or undecryptable.
    public var problems: [BackupPayloadProblem]
    /// Rows left out by iOS's rules (`domain/path`): Library/Caches and tmp,
    /// and, in an app domain, anything outside Documents and Library.
    public var skippedPaths: [String]
    /// Files from another host's backup whose `Digest` could not be checked.
    public var uncheckedDigests: Int
    /// Apps whose data is in the backup but that are not installed on the
    /// target, so their data was not restored.
    public var appsNotInstalled: [String]
    /// App groups in the backup that no installed app uses on the target,
    /// so their data was not restored.
    public var groupsNotPresent: [String]

    /// An empty report.
    public init() {
        domains = []
        restoredFiles = 0
        restoredBytes = 0
        problems = []
        skippedPaths = []
        uncheckedDigests = 0
        appsNotInstalled = []
        groupsNotPresent = []
    }

    /// Whether every payload restored was good.
    public var isClean: Bool { problems.isEmpty }

    /// Adds another report's counts and lists to this one.
    public mutating func merge(_ other: RestoreReport) {
        domains += other.domains
        restoredFiles += other.restoredFiles
        restoredBytes += other.restoredBytes
        problems += other.problems
        skippedPaths += other.skippedPaths
        uncheckedDigests += other.uncheckedDigests
        appsNotInstalled += other.appsNotInstalled
        groupsNotPresent += other.groupsNotPresent
    }
}
