import CodedErrors
import Foundation

/// A failed backup operation: what went wrong (``MobileBackupErrorCode``),
/// where (the file and, inside a backup, the domain and relative path), and
/// a message for people.
///
/// Every problem with a backup directory, a source tree or a password is one
/// of these, never a crash.
public typealias MobileBackupError = CodedError<MobileBackupErrorCode>

/// The kinds of failure of a ``MobileBackupError``.
public enum MobileBackupErrorCode: String, ErrorCode, CaseIterable {
    public typealias Context = MobileBackupErrorContext

    /// The directory is not a backup: no `Manifest.db`, or not a directory.
    case notABackup
    /// An older (`Manifest.mbdb`, before iOS 10) backup, which is recognised but not read.
    case unsupportedFormat
    /// `Info.plist`, `Manifest.plist` or `Status.plist` cannot be read as expected.
    case malformedPropertyList
    /// `Manifest.db` is not the SQLite database of a backup, or one of its rows is damaged.
    case malformedManifest
    /// A Files row's `file` column is not a readable MBFile keyed archive.
    case malformedRecord
    /// The `BackupKeyBag` cannot be parsed, or lacks what the backup needs.
    case malformedKeyBag
    /// The backup is encrypted and no password was given.
    case passwordRequired
    /// The password does not unlock the backup's keybag.
    case wrongPassword
    /// A decryption or encryption step failed (a damaged wrapped key or ciphertext).
    case cryptoFailed
    /// A file could not be read, written, linked, renamed or removed.
    case ioFailed
    /// A domain name, a relative path or a source is unusable.
    case invalidSource
    /// The backup was stopped before it finished (the previous backup is left as it was).
    case interrupted
    /// A requested domain or file is not in the backup.
    case notFound
    /// The backup's `Status.plist` says its snapshot is not finished (still
    /// being uploaded or written): restoring it would bring back a partial state.
    case unfinishedBackup
    /// One of the backup's own files (`Info.plist`, `Manifest.plist`,
    /// `Status.plist`, `Manifest.db`) is a symbolic link, a FIFO, a device,
    /// a socket or a directory: refused, never followed, opened or read.
    case notARegularFile
    /// The file system cannot hold what the backup would write: found
    /// before anything is written, or by SQLite writing `Manifest.db`
    /// (`SQLITE_FULL`, its error the cause). A full disk met by another
    /// write is an ``ioFailed`` whose cause says so (`isDiskFull`).
    case insufficientSpace
    /// Another process is writing a backup of the same device into the same directory.
    case backupInProgress

    /// The code, the place and the message on one line.
    public static func describe(_ error: MobileBackupError) -> String {
        var place: [String] = []
        if let path = error.path { place.append(path) }
        if let domain = error.domain { place.append(error.relativePath.map { "\(domain)/\($0)" } ?? domain) }
        let location = place.isEmpty ? "" : " (\(place.joined(separator: ", ")))"
        return "\(error.code.rawValue)\(location): \(error.message)"
    }

    /// ``insufficientSpace`` is ``CodedErrors/FailureKind/noSpace``; a
    /// full disk met while writing is an ``ioFailed`` whose cause says so.
    public var failureKind: FailureKind? { self == .insufficientSpace ? .noSpace : nil }
}

/// Where a ``MobileBackupError`` happened.
public struct MobileBackupErrorContext: Hashable, Sendable {
    /// The file on disk involved, if any.
    public var path: String?
    /// The backup domain involved, if any.
    public var domain: String?
    /// The path inside the domain involved, if any.
    public var relativePath: String?
}

extension MobileBackupError {
    /// Creates an error.
    public init(_ code: Code, path: String? = nil, domain: String? = nil, relativePath: String? = nil, _ message: String) {
        self.init(code, message, context: MobileBackupErrorContext(path: path, domain: domain, relativePath: relativePath))
    }
}
