import Foundation

/// A payload that does not match its record.
public struct BackupPayloadProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No payload file at `xx/<fileID>`.
        case missing
        /// Shorter than the recorded size (or, encrypted, than its padded size).
        case truncated
        /// Longer than the recorded size, or not a whole number of AES blocks.
        case sizeMismatch
        /// The contents' SHA-1 differs from the recorded `Digest`.
        case digestMismatch
        /// The payload or its key does not decrypt (bad padding, a key that does not unwrap).
        case undecryptable
        /// The payload could not be read.
        case unreadable
        /// The row's relative path would leave the domain (`..`, a leading `/`), so it is not extracted.
        case unsafePath
    }

    /// The file's domain.
    public var domain: String
    /// The file's path in the domain.
    public var relativePath: String
    /// The payload's name.
    public var fileID: String
    /// What is wrong.
    public var kind: Kind
    /// Details (sizes, the underlying error).
    public var message: String

    /// `domain/path: kind (message)`.
    public var description: String { "\(domain)/\(relativePath): \(kind.rawValue) (\(message))" }
}

/// The outcome of checking or extracting payloads: how many files were
/// good, and one problem per file that was not. Files with a problem are
/// never written out.
public struct BackupVerificationReport: Sendable, Hashable {
    /// Regular files whose payload matched its record.
    public var verifiedFiles: Int
    /// Bytes of those files.
    public var verifiedBytes: Int64
    /// One entry per damaged file.
    public var problems: [BackupPayloadProblem]
    /// Files whose digest could not be checked: a backup from another host
    /// whose `Digest` is not the SHA-1 of the contents this module records.
    public var uncheckedDigests: Int

    /// Whether every payload was good.
    public var isClean: Bool { problems.isEmpty }
}
