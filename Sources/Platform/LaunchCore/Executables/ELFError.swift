import CodedErrors

/// An executable or library the ELF reader could not read: what was wrong
/// (``ELFErrorCode``), at which byte offset, and a message for people.
///
/// Executables are untrusted input (an app's own binary), so every offset
/// and size in them is checked before use; a malformed file is this error,
/// never a crash.
public typealias ELFError = CodedError<ELFErrorCode>

/// The kinds of malformation of a ``ELFError``.
public enum ELFErrorCode: String, ErrorCode {
    public typealias Context = ELFErrorContext

    /// The file could not be opened or read.
    case unreadable
    /// The file does not start with the ELF magic.
    case notELF
    /// An ELF class, byte order or version this reader does not know.
    case unsupported
    /// A header, table or string lies (partly) past the end of the file.
    case truncated
    /// A count, size or address is out of range (an entry size too
    /// small, a table too large, an address no segment maps).
    case malformed

    /// The message and the offset.
    public static func describe(_ error: ELFError) -> String {
        error.offset == 0 ? error.message : "\(error.message) (at byte \(error.offset))"
    }
}

/// Where in the file an ``ELFError`` was found.
public struct ELFErrorContext: Hashable, Sendable {
    /// The byte offset concerned (0 when none is).
    public var offset: UInt64
}

extension ELFError {
    /// Creates an error.
    public init(_ code: Code, offset: UInt64 = 0, _ message: String) {
        self.init(code, message, context: ELFErrorContext(offset: offset))
    }
}
