/// Landlock's file-system access rights (`LANDLOCK_ACCESS_FS_*`), and which
/// of them each ABI version knows.
///
/// A ruleset "handles" a set of rights: those are denied everywhere except
/// beneath the paths a rule allows them on. Rights the running kernel does not
/// know cannot be handled, so they stay unrestricted there; ``Landlock``
/// reports the version so callers can tell what was enforced.
public struct LandlockAccess: OptionSet, Sendable, Hashable {
    /// The kernel's bit mask.
    public let rawValue: UInt64
    /// Wraps a kernel bit mask.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Run a file as a program.
    public static let execute = LandlockAccess(rawValue: 1 << 0)
    /// Open a file for writing.
    public static let writeFile = LandlockAccess(rawValue: 1 << 1)
    /// Open a file for reading.
    public static let readFile = LandlockAccess(rawValue: 1 << 2)
    /// List a directory.
    public static let readDirectory = LandlockAccess(rawValue: 1 << 3)
    /// Remove an empty directory.
    public static let removeDirectory = LandlockAccess(rawValue: 1 << 4)
    /// Unlink a file.
    public static let removeFile = LandlockAccess(rawValue: 1 << 5)
    /// Create a character device node.
    public static let makeCharacterDevice = LandlockAccess(rawValue: 1 << 6)
    /// Create a directory.
    public static let makeDirectory = LandlockAccess(rawValue: 1 << 7)
    /// Create a regular file (also the destination side of a link or rename).
    public static let makeRegularFile = LandlockAccess(rawValue: 1 << 8)
    /// Create a UNIX socket file.
    public static let makeSocket = LandlockAccess(rawValue: 1 << 9)
    /// Create a named pipe.
    public static let makeFIFO = LandlockAccess(rawValue: 1 << 10)
    /// Create a block device node.
    public static let makeBlockDevice = LandlockAccess(rawValue: 1 << 11)
    /// Create a symbolic link.
    public static let makeSymbolicLink = LandlockAccess(rawValue: 1 << 12)
    /// ABI 2: link or rename a file into another directory. Without it
    /// handled (ABI 1), such moves are always refused with `EXDEV`.
    public static let refer = LandlockAccess(rawValue: 1 << 13)
    /// ABI 3: truncate a file (`truncate`, `O_TRUNC`).
    public static let truncate = LandlockAccess(rawValue: 1 << 14)
    /// ABI 5: `ioctl` on character and block devices.
    public static let ioctlDevice = LandlockAccess(rawValue: 1 << 15)

    /// The rights that make sense on a file (the rest apply to directories).
    public static let fileRights: LandlockAccess = [.execute, .writeFile, .readFile, .truncate, .ioctlDevice]

    /// Every right that ABI `version` can handle.
    public static func handled(byABI version: Int) -> LandlockAccess {
        guard version >= 1 else { return [] }
        var rights = LandlockAccess(rawValue: (1 << 13) - 1)
        if version >= 2 { rights.insert(.refer) }
        if version >= 3 { rights.insert(.truncate) }
        if version >= 5 { rights.insert(.ioctlDevice) }
        return rights
    }

    // MARK: The sets the launch policy hands out

    /// Read files and list directories.
    public static let read: LandlockAccess = [.readFile, .readDirectory]
    /// Read, list and run programs: bundles and system libraries.
    public static let readExecute: LandlockAccess = [.readFile, .readDirectory, .execute]
    /// Everything a data directory needs except running what was written
    /// there (as on iOS, written files are never executable) and making
    /// device nodes.
    public static let readWrite: LandlockAccess = [
        .readFile, .readDirectory, .writeFile, .truncate, .removeFile, .removeDirectory,
        .makeDirectory, .makeRegularFile, .makeSocket, .makeFIFO, .makeSymbolicLink, .refer,
    ]
    /// A device file that is read and written (`/dev/null`).
    public static let device: LandlockAccess = [.readFile, .writeFile, .truncate, .ioctlDevice]
}

/// Landlock's IPC scopes (`LANDLOCK_SCOPE_*`, ABI 6): a confined process may
/// not reach these outside its own domain.
package struct LandlockScope: OptionSet, Sendable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Connecting to abstract UNIX sockets created outside the domain.
    package static let abstractUnixSocket = LandlockScope(rawValue: 1 << 0)
    /// Signalling processes outside the domain.
    package static let signal = LandlockScope(rawValue: 1 << 1)

    package static func handled(byABI version: Int) -> LandlockScope {
        version >= 6 ? [.abstractUnixSocket, .signal] : []
    }
}
