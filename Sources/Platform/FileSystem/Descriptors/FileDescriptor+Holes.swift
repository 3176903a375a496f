#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// `SEEK_DATA` and `SEEK_HOLE` are behind `_GNU_SOURCE` in glibc's headers,
// which Swift's Glibc module does not define; their values are fixed ABI.
#if os(Linux)
private let seekData: Int32 = 3
private let seekHole: Int32 = 4
#elseif canImport(Darwin)
private let seekData: Int32 = 4
private let seekHole: Int32 = 3
#endif

/// `lseek`, reachable from inside `FileDescriptor` (whose own `seek` shadows the C name).
private func c_lseek(_ fd: Int32, _ offset: off_t, _ whence: Int32) -> off_t { lseek(fd, offset, whence) }

/// A run of a file's bytes that holds data, as `SEEK_DATA`/`SEEK_HOLE`
/// report it; what lies between two extents is a hole (reads as zeros,
/// takes no disk space).
public struct DataExtent: Sendable, Hashable {
    /// Where the data starts.
    public var offset: UInt64
    /// How many bytes of data from there.
    public var length: UInt64
    /// The offset just past the data.
    public var end: UInt64 { offset + length }

    public init(offset: UInt64, length: UInt64) {
        self.offset = offset
        self.length = length
    }
}

extension FileDescriptor {
    /// The first data extent at or after `offset`, cut at `size` (the file's
    /// size as the caller saw it), or nil when only a hole (or nothing) lies
    /// from `offset` to `size`.
    ///
    /// Copying a file extent by extent keeps its holes: a 1 TB file made
    /// with `ftruncate` and a few writes is a few reads and writes, not a
    /// terabyte of zeros. A file system without `SEEK_DATA` (`EINVAL`,
    /// `ENOTSUP`) answers with one extent of everything left, the file read
    /// as it always was. Moves the file position.
    public func dataExtent(from offset: UInt64, size: UInt64) throws(FileSystemError) -> DataExtent? {
        guard offset < size else { return nil }
        #if os(Linux) || canImport(Darwin)
        let start = retryingOnInterrupt { c_lseek(rawValue, off_t(offset), seekData) }
        if start < 0 {
            // ENXIO: no data from `offset` to the end (a trailing hole).
            if errno == ENXIO { return nil }
            if errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP {
                return DataExtent(offset: offset, length: size - offset)
            }
            throw FileSystemError(currentErrno, "find the data of", path: "")
        }
        let dataStart = UInt64(start)
        guard dataStart < size else { return nil }
        let hole = retryingOnInterrupt { c_lseek(rawValue, off_t(dataStart), seekHole) }
        if hole < 0 {
            // The file shrank under us: the data runs to the size seen.
            if errno == ENXIO { return DataExtent(offset: dataStart, length: size - dataStart) }
            throw FileSystemError(currentErrno, "find the holes of", path: "")
        }
        return DataExtent(offset: dataStart, length: min(UInt64(hole), size) - dataStart)
        #else
        return DataExtent(offset: offset, length: size - offset)
        #endif
    }

    /// The capacity of the file system holding this file or directory
    /// (`fstatvfs`): what a writer checks before it writes a large tree.
    public func space() throws(FileSystemError) -> FileSystemSpace {
        var info = CStatVFS()
        guard fstatvfs(rawValue, &info) == 0 else { throw FileSystemError(currentErrno, "read the capacity of", path: "") }
        return FileSystemSpace(info)
    }
}

extension FileSystemSpace {
    /// The figures of a `statvfs` answer, in bytes.
    init(_ info: CStatVFS) {
        let unit = UInt64(info.f_frsize == 0 ? info.f_bsize : info.f_frsize)
        self.init(total: UInt64(info.f_blocks) * unit, available: UInt64(info.f_bavail) * unit)
    }
}
