// The platform import ladder and the calls Swift's C-library module does not
// declare. Each of these is reached one way, here: `openat2` and the
// extended-attribute calls (`getxattrat` among them) through `syscall`/their symbols, `renameat2`,
// `copy_file_range`, `syncfs` and `sync_file_range` by their glibc symbols (glibc 2.28+, which
// every supported Linux has), never through `dlsym`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

#if canImport(Glibc)
typealias CStat = Glibc.stat
typealias CStatVFS = Glibc.statvfs
#elseif canImport(Musl)
typealias CStat = Musl.stat
typealias CStatVFS = Musl.statvfs
#elseif canImport(Darwin)
typealias CStat = Darwin.stat
typealias CStatVFS = Darwin.statvfs
#endif

#if os(Linux)
// Every argument is an integer or a pointer, which the SysV x86-64 and
// AAPCS64 ABIs pass the same way to fixed and variadic functions; glibc's
// `syscall` only moves registers.
// One declaration of `syscall` (two of different types are refused): six
// word-sized arguments, pointers passed by their bit pattern; the kernel
// ignores those a call does not take.
@_silgen_name("syscall")
func c_syscall(_ number: Int, _ a1: Int, _ a2: Int, _ a3: Int, _ a4: Int, _ a5: Int, _ a6: Int) -> Int
@_silgen_name("fsetxattr")
func c_fsetxattr(_ fd: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer?, _ size: Int, _ flags: Int32) -> Int32
@_silgen_name("fgetxattr")
func c_fgetxattr(_ fd: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int
@_silgen_name("fremovexattr")
func c_fremovexattr(_ fd: Int32, _ name: UnsafePointer<CChar>) -> Int32
@_silgen_name("flistxattr")
func c_flistxattr(_ fd: Int32, _ list: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int
@_silgen_name("renameat2")
func c_renameat2(_ olddirfd: Int32, _ oldpath: UnsafePointer<CChar>, _ newdirfd: Int32, _ newpath: UnsafePointer<CChar>, _ flags: UInt32) -> Int32
@_silgen_name("copy_file_range")
func c_copy_file_range(_ input: Int32, _ inputOffset: UnsafeMutablePointer<Int64>?, _ output: Int32,
                       _ outputOffset: UnsafeMutablePointer<Int64>?, _ count: Int, _ flags: UInt32) -> Int
@_silgen_name("syncfs")
func c_syncfs(_ fd: Int32) -> Int32
@_silgen_name("sync_file_range")
func c_sync_file_range(_ fd: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32
#endif

// Top-level names reach the C library's functions that members of the same
// name on `FileDescriptor` would otherwise shadow.
func c_close(_ fd: Int32) -> Int32 { close(fd) }
func c_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
func c_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
func c_rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }
func c_unlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }

/// The calling thread's `errno`, as swift-system's type.
var currentErrno: Errno { Errno(rawValue: errno) }

/// Runs a system call again while a signal interrupts it (`EINTR`): the one
/// retry loop of the package.
@inline(__always)
func retryingOnInterrupt<T: FixedWidthInteger & SignedInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// `openat`, again after `EINTR`; the one way this module opens a name.
///
/// An `O_PATH` open refused as unsupported is made again as a
/// non-blocking read-only open: a confined app's seccomp filter refuses
/// `O_PATH` that way (Landlock does not check such opens, so the launcher
/// forbids them), and an open for reading is one Landlock does check. A
/// link opened with `O_NOFOLLOW` then fails with `ELOOP` instead of
/// yielding the link itself.
@inline(__always)
func openFile(_ directory: Int32, _ name: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    let fd = retryingOnInterrupt { openat(directory, name, flags, mode) }
    #if os(Linux)
    if fd < 0, errno == EOPNOTSUPP, flags & O_PATH_FLAG != 0 {
        let readable = (flags & ~(O_PATH_FLAG | O_ACCMODE)) | O_RDONLY | O_NONBLOCK
        return retryingOnInterrupt { openat(directory, name, readable, mode) }
    }
    #endif
    return fd
}

/// Throws a ``FileSystemError`` built from `errno` when `result` is negative.
@inline(__always)
func check<T: FixedWidthInteger & SignedInteger>(_ result: T, _ operation: String, _ path: String) throws(FileSystemError) -> T {
    if result < 0 { throw FileSystemError(currentErrno, operation, path: path) }
    return result
}
func c_pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int { pread(fd, buffer, count, offset) }
func c_pwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int { pwrite(fd, buffer, count, offset) }
