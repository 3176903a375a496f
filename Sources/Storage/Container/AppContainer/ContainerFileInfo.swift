import FileSystem
import Foundation

/// What ``AppContainer/attributes(_:)`` reports about an item. A symbolic
/// link is described itself, not its target.
public struct ContainerFileInfo: Sendable, Hashable {
    /// Size in bytes.
    public var size: UInt64
    /// The full `st_mode`: type bits and permissions.
    public var mode: UInt32
    /// Last content modification.
    public var modificationDate: Date
    /// Creation date, when the file system reports one.
    public var creationDate: Date?
    /// The inode number.
    public var inode: UInt64
    /// Whether the item is a directory.
    public var isDirectory: Bool
    /// Whether the item is a symbolic link.
    public var isSymbolicLink: Bool
    /// The modification time in nanoseconds since 1970, exact (a quick
    /// "changed since recorded" check compares it with inode and size).
    public var modificationNanoseconds: Int64

    /// The permission bits (`mode & 0o7777`).
    public var permissions: UInt32 { mode & 0o7777 }

    init(_ status: FileStatus) {
        size = status.size
        mode = status.mode
        let nanoseconds = status.modificationNanoseconds
        modificationNanoseconds = Int64(nanoseconds)
        modificationDate = Date(timeIntervalSince1970: Double(nanoseconds / 1_000_000_000)
                                    + Double(nanoseconds % 1_000_000_000) / 1_000_000_000)
        creationDate = nil
        inode = status.inode
        isDirectory = status.isDirectory
        isSymbolicLink = status.isSymbolicLink
    }
}
