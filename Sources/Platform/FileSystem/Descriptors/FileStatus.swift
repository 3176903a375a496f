/// What `stat` reports about one file, in a platform-neutral shape.
///
/// The inode and device identify the file: a scan records them and a later
/// open checks them, so a file swapped between the two is noticed.
public struct FileStatus: Sendable, Hashable {
    /// The whole `st_mode`, type bits included.
    public var mode: UInt32
    /// The apparent size in bytes.
    public var size: UInt64
    /// The bytes of disk blocks allocated (`st_blocks` × 512).
    public var allocatedBytes: UInt64
    public var inode: UInt64
    public var device: UInt64
    public var linkCount: UInt64
    public var userID: UInt32
    public var groupID: UInt32
    /// Modification time, nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    /// Status-change time, nanoseconds since 1970.
    public var changeNanoseconds: Int64

    public init(mode: UInt32, size: UInt64, allocatedBytes: UInt64 = 0, inode: UInt64 = 0, device: UInt64 = 0,
                linkCount: UInt64 = 1, userID: UInt32 = 0, groupID: UInt32 = 0,
                modificationNanoseconds: Int64 = 0, changeNanoseconds: Int64 = 0) {
        self.mode = mode
        self.size = size
        self.allocatedBytes = allocatedBytes
        self.inode = inode
        self.device = device
        self.linkCount = linkCount
        self.userID = userID
        self.groupID = groupID
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
    }

    /// The permission bits (`mode & 0o7777`).
    public var permissions: UInt32 { mode & 0o7777 }
    public var isDirectory: Bool { mode & 0o170000 == 0o040000 }
    public var isRegularFile: Bool { mode & 0o170000 == 0o100000 }
    public var isSymbolicLink: Bool { mode & 0o170000 == 0o120000 }
    public var isCharacterDevice: Bool { mode & 0o170000 == 0o020000 }
    public var isBlockDevice: Bool { mode & 0o170000 == 0o060000 }
    /// A named pipe (`mkfifo`).
    public var isFIFO: Bool { mode & 0o170000 == 0o010000 }
    public var isSocket: Bool { mode & 0o170000 == 0o140000 }
    /// A device, a FIFO or a socket: something whose name stands for more
    /// than bytes on the disk, which an atomic replace must never rename a
    /// file over (a `-o /dev/null` would take the machine's `/dev/null`).
    public var isSpecialFile: Bool { isCharacterDevice || isBlockDevice || isFIFO || isSocket }
    /// What kind of file it is, for messages: "a regular file", "a FIFO" ….
    public var kindDescription: String {
        switch mode & 0o170000 {
        case 0o100000: return "a regular file"
        case 0o040000: return "a directory"
        case 0o120000: return "a symbolic link"
        case 0o020000: return "a character device"
        case 0o060000: return "a block device"
        case 0o010000: return "a FIFO"
        case 0o140000: return "a socket"
        default: return "a file of unknown type"
        }
    }
    /// Modification time in seconds since 1970, with its fraction.
    public var modificationSeconds: Double { Double(modificationNanoseconds) / 1_000_000_000 }

    /// Whether `other` names the same file: same device and inode.
    public func isSameFile(as other: FileStatus) -> Bool { inode == other.inode && device == other.device }
}

extension FileStatus {
    init(_ info: CStat) {
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        self.init(mode: UInt32(info.st_mode), size: UInt64(max(0, info.st_size)),
                  allocatedBytes: UInt64(max(0, info.st_blocks)) * 512,
                  inode: UInt64(info.st_ino), device: UInt64(info.st_dev), linkCount: UInt64(info.st_nlink),
                  userID: UInt32(info.st_uid), groupID: UInt32(info.st_gid),
                  modificationNanoseconds: modified, changeNanoseconds: changed)
    }
}
