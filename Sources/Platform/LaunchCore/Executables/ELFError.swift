/// An executable or library the ELF reader could not read: what was wrong
/// (``Code``), at which byte offset, and a message for people.
///
/// Executables are untrusted input (an app's own binary), so every offset
/// and size in them is checked before use; a malformed file is this error,
/// never a crash.
public struct ELFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of malformation.
    public enum Code: String, Sendable, Hashable {
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
    }

    /// What was wrong.
    public var code: Code
    /// The byte offset concerned (0 when none is).
    public var offset: UInt64
    /// A lower-case phrase for people.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, offset: UInt64 = 0, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// The message and the offset.
    public var description: String { offset == 0 ? message : "\(message) (at byte \(offset))" }
}
