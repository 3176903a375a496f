#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A name read from a directory: as a string, and as its bytes when they
/// are not valid UTF-8.
///
/// Linux names are bytes. A name that is not UTF-8 cannot round-trip
/// through `String` (decoding puts U+FFFD in place of the bad bytes), so a
/// lookup by the string would miss the file; such a name keeps its bytes,
/// which reach the file.
public struct DirectoryEntryName: Sendable, Hashable {
    /// The name; with U+FFFD in place of bad bytes when ``bytes`` is set.
    public var name: String
    /// The name's bytes, only when they are not valid UTF-8.
    public var bytes: [UInt8]?

    /// Whether ``name`` is not the name on disk.
    public var isRepaired: Bool { bytes != nil }
}

extension FileDescriptor {
    /// The names, sorted bytewise, with the bytes of those that are not
    /// valid UTF-8 (``sortedEntries()`` gives those repaired, which no
    /// lookup finds).
    public func sortedEntryNames() throws(FileSystemError) -> [DirectoryEntryName] {
        try sortedEntryBytes { buffer in
            if let name = String(validating: buffer, as: UTF8.self) { return DirectoryEntryName(name: name, bytes: nil) }
            return DirectoryEntryName(name: String(decoding: buffer, as: UTF8.self), bytes: Array(buffer))
        }
    }

    /// `fstatat` of an entry by its bytes when its name is repaired, links
    /// not followed; nil when nothing is there.
    public func statusIfPresent(of entry: DirectoryEntryName) throws(FileSystemError) -> FileStatus? {
        guard let bytes = entry.bytes else { return try statusIfPresent(of: entry.name) }
        return try bytes.withUnsafeBufferPointer { name throws(FileSystemError) in try statusIfPresent(ofNameBytes: name) }
    }

    /// Opens the directory `entry` of this directory, by its bytes when its
    /// name is repaired, never following a link.
    public func openDirectory(_ entry: DirectoryEntryName) throws(FileSystemError) -> FileDescriptor {
        guard let bytes = entry.bytes else { return try openDirectory(entry.name) }
        let flags = Self.flags(.readOnly, [.directory, .noFollow])
        let fd = bytes.withUnsafeBufferPointer { name in
            Self.withCName(name) { cName in openFile(rawValue, cName, flags) }
        }
        guard fd >= 0 else { throw FileSystemError(currentErrno, "open", path: entry.name) }
        return FileDescriptor(rawValue: fd)
    }
}
