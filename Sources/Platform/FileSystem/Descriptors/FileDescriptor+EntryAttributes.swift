#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// An extended attribute of an entry of this directory, read without opening
// the entry: a tree walk that needs one attribute of every item (the
// do-not-back-up flag) would otherwise open, read and close each file,
// three system calls where `getxattrat(2)` (Linux 6.13) makes one.
extension FileDescriptor {
    private static let sysGetxattrat = 464  // the same number on x86-64 and arm64

    /// The attribute `attribute` of the entry `name` of this directory (the
    /// entry itself, never a link's target), or nil when it does not have
    /// it. Where the kernel has no `getxattrat`, the entry is opened
    /// (`O_NOFOLLOW`, non-blocking) and read with `fgetxattr`. A file
    /// system without extended attributes throws an error whose
    /// ``FileSystemError/isUnsupported`` is true.
    public func extendedAttribute(_ attribute: String, ofEntry name: String) throws(FileSystemError) -> [UInt8]? {
        #if os(Linux)
        var size = 256
        while true {
            var buffer = [UInt8](repeating: 0, count: size)
            let count = buffer.withUnsafeMutableBytes { bytes -> Int in
                // struct xattr_args { __aligned_u64 value; __u32 size; __u32 flags; }
                var arguments: (UInt64, UInt32, UInt32) = (UInt64(UInt(bitPattern: bytes.baseAddress)), UInt32(bytes.count), 0)
                return withUnsafeMutableBytes(of: &arguments) { argumentBytes in
                    guard let pointer = argumentBytes.baseAddress else { return -1 }
                    return name.withCString { namePointer in
                        attribute.withCString { attributePointer in
                            retryingOnInterrupt {
                                c_syscall(Self.sysGetxattrat, Int(rawValue), Int(bitPattern: namePointer), Int(AT_SYMLINK_NOFOLLOW),
                                          Int(bitPattern: attributePointer), Int(bitPattern: pointer), argumentBytes.count)
                            }
                        }
                    }
                }
            }
            if count >= 0 { return Array(buffer[0..<count]) }
            if errno == ENODATA { return nil }
            if errno == ERANGE && size < 1 << 16 { size *= 16; continue }
            if errno == ENOSYS { break }
            throw FileSystemError(currentErrno, "read the attribute \(attribute) of", path: name)
        }
        let entry: FileDescriptor
        do { entry = try open(name, .readOnly, options: [.noFollow, .nonBlocking]) } catch {
            if error.isLoop { return nil }  // a link, which has no `user.` attributes
            throw error
        }
        defer { entry.closeQuietly() }
        do { return try entry.extendedAttribute(attribute) } catch { throw error.with(path: name) }
        #else
        throw FileSystemError(.notSupported, "read the attribute \(attribute) of", path: name)
        #endif
    }
}
