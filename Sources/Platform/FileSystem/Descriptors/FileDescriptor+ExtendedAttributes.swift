#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// Extended attributes on an open file (Linux's `user.` namespace). Where
// the file system has none, the calls fail with an error whose
// ``FileSystemError/isUnsupported`` is true, and callers keep their own record.
extension FileDescriptor {
    /// The attribute's bytes, or nil when the file does not have it.
    public func extendedAttribute(_ name: String) throws(FileSystemError) -> [UInt8]? {
        #if os(Linux)
        var size = 256
        while true {
            var buffer = [UInt8](repeating: 0, count: size)
            let count = buffer.withUnsafeMutableBytes { c_fgetxattr(rawValue, name, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer[0..<count]) }
            if errno == ENODATA { return nil }
            if errno == ERANGE && size < 1 << 16 { size *= 16; continue }
            throw FileSystemError(currentErrno, "read the attribute \(name) of", path: "")
        }
        #else
        throw FileSystemError(.notSupported, "read the attribute \(name) of", path: "")
        #endif
    }

    /// Sets the attribute.
    public func setExtendedAttribute(_ name: String, _ value: [UInt8]) throws(FileSystemError) {
        #if os(Linux)
        let result = value.withUnsafeBytes { c_fsetxattr(rawValue, name, $0.baseAddress, $0.count, 0) }
        guard result == 0 else { throw FileSystemError(currentErrno, "set the attribute \(name) of", path: "") }
        #else
        throw FileSystemError(.notSupported, "set the attribute \(name) of", path: "")
        #endif
    }

    /// Removes the attribute (a missing one is fine).
    public func removeExtendedAttribute(_ name: String) throws(FileSystemError) {
        #if os(Linux)
        if c_fremovexattr(rawValue, name) == 0 || errno == ENODATA { return }
        throw FileSystemError(currentErrno, "remove the attribute \(name) of", path: "")
        #else
        throw FileSystemError(.notSupported, "remove the attribute \(name) of", path: "")
        #endif
    }

    /// The names of the file's attributes (empty where unsupported).
    public func extendedAttributeNames() throws(FileSystemError) -> [String] {
        #if os(Linux)
        var size = 1024
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let count = c_flistxattr(rawValue, &buffer, size)
            if count >= 0 {
                return buffer[0..<count].split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            }
            if errno == ERANGE && size < 1 << 16 { size *= 16; continue }
            if errno == ENOTSUP { return [] }
            throw FileSystemError(currentErrno, "list the attributes of", path: "")
        }
        #else
        return []
        #endif
    }

    /// Copies every `user.` attribute of `source` onto this file (the
    /// do-not-back-up flag among them), as an atomic replace that keeps
    /// attributes does. Unsupported file systems copy nothing.
    public func copyExtendedAttributes(from source: FileDescriptor) throws(FileSystemError) {
        for name in try source.extendedAttributeNames() where name.hasPrefix("user.") {
            guard let value = try source.extendedAttribute(name) else { continue }
            try setExtendedAttribute(name, value)
        }
    }
}
