#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SystemPackage

extension FileDescriptor {
    /// Reads until `buffer` is full or the file ends, at `offset` (`pread`)
    /// or the file position; returns the bytes read.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64? = nil) throws(FileSystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return try transferFully(buffer.count, "read", at: offset, atZero: nil) { done, position in
            position.map { c_pread(rawValue, base + done, buffer.count - done, $0) }
                ?? c_read(rawValue, base + done, buffer.count - done)
        }
    }

    /// One `read` of up to `buffer.count` bytes (0 at the end of the file).
    public func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let count = retryingOnInterrupt { c_read(rawValue, base, buffer.count) }
        return try check(count, "read", "")
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    public func read(count: Int, at offset: UInt64) throws(FileSystemError) -> Data {
        var data = Data(count: count)
        var failure: FileSystemError?
        let got = data.withUnsafeMutableBytes { buffer -> Int in
            do throws(FileSystemError) { return try readFully(into: buffer, at: offset) } catch { failure = error; return 0 }
        }
        if let failure { throw failure }
        if got < count { data.removeSubrange(got...) }
        return data
    }

    /// Everything from the file position to the end.
    public func readToEnd(sizeHint: Int = 0) throws(FileSystemError) -> Data {
        var result = Data()
        result.reserveCapacity(sizeHint)
        let chunk = max(sizeHint + 1, 1 << 16)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try readSome(into: buffer)
            if count == 0 { return result }
            result.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    /// The whole file: copied into memory up to `threshold` bytes, mapped
    /// above it (a regular file only).
    public func readAll(mappedAbove threshold: Int = .max) throws(FileSystemError) -> Data {
        let info = try status()
        if info.isDirectory { throw FileSystemError(.isDirectory, "read", path: "") }
        let size = Int(clamping: info.size)
        if !info.isRegularFile { return try readToEnd() }
        if size == 0 { return Data() }
        if size > threshold { return try map(size: size) }
        return try read(count: size, at: 0)
    }

    /// Writes all of `buffer` at `offset` (`pwrite`) or the file position.
    public func writeFully(_ buffer: UnsafeRawBufferPointer, at offset: UInt64? = nil) throws(FileSystemError) {
        guard let base = buffer.baseAddress else { return }
        // A zero-byte write of a non-empty buffer means the device is full.
        _ = try transferFully(buffer.count, "write", at: offset, atZero: .noSpace) { done, position in
            position.map { c_pwrite(rawValue, base + done, buffer.count - done, $0) }
                ?? c_write(rawValue, base + done, buffer.count - done)
        }
    }

    /// The loop behind ``readFully(into:at:)`` and ``writeFully(_:at:)``:
    /// calls `transfer` (given the bytes done so far and, with an `offset`,
    /// the file offset to use) until `count` bytes have moved, again after
    /// `EINTR`. A call that moves nothing ends the loop, or with `atZero`
    /// throws that error; returns the bytes moved.
    @inline(__always)
    private func transferFully(_ count: Int, _ operation: String, at offset: UInt64?, atZero: Errno?,
                               _ transfer: (_ done: Int, _ position: off_t?) -> Int) throws(FileSystemError) -> Int {
        var total = 0
        while total < count {
            let moved = try check(retryingOnInterrupt { transfer(total, offset.map { off_t($0) + off_t(total) }) },
                                  operation, "")
            if moved == 0 {
                if let atZero { throw FileSystemError(atZero, operation, path: "") }
                break
            }
            total += moved
        }
        return total
    }

    /// Writes all of `bytes` at `offset` or the file position.
    // Inlinable so a caller's `Data` gets a specialized copy: the generic one
    // looks up `regions`' metadata on every call (seen in a profile of a
    // 4 KiB atomic replace).
    @inlinable
    public func writeFully<Bytes: DataProtocol>(_ bytes: Bytes, at offset: UInt64? = nil) throws(FileSystemError) {
        var failure: FileSystemError?
        var position = offset
        for region in bytes.regions {
            region.withUnsafeBytes { buffer in
                do throws(FileSystemError) { try writeFully(buffer, at: position) } catch { failure = error }
            }
            if let failure { throw failure }
            if let current = position { position = current + UInt64(region.count) }
        }
    }

    /// Flushes the file's data and inode to the disk (`fsync`).
    public func sync() throws(FileSystemError) {
        guard retryingOnInterrupt({ fsync(rawValue) }) == 0 else { throw FileSystemError(currentErrno, "flush", path: "") }
    }

    /// Starts writing `count` bytes of the file from `offset` to the disk
    /// and returns without waiting (`sync_file_range` with
    /// `SYNC_FILE_RANGE_WRITE`; nothing elsewhere); a `count` of 0 runs to
    /// the end of the file. A hint, not a flush:
    /// a writer that writes a large file in pieces calls it after each, so
    /// the disk works while the rest is made and the ``sync()`` that must
    /// still follow has less left to wait for. Failures are ignored: the
    /// flush that follows reports any that matter.
    public func startWriteback(offset: UInt64, count: Int) {
        #if os(Linux)
        let syncFileRangeWrite: UInt32 = 2
        _ = c_sync_file_range(rawValue, Int64(clamping: offset), Int64(count), syncFileRangeWrite)
        #endif
    }

    /// Flushes the whole file system holding this file (`syncfs`; `sync`
    /// elsewhere): one call instead of one `fsync` per file, for a backup
    /// that wrote thousands.
    public func syncFileSystem() throws(FileSystemError) {
        #if os(Linux)
        guard c_syncfs(rawValue) == 0 else { throw FileSystemError(currentErrno, "flush the file system of", path: "") }
        #else
        Darwin.sync()
        #endif
    }

    /// Sets the file's size (`ftruncate`).
    public func truncate(to size: UInt64) throws(FileSystemError) {
        guard retryingOnInterrupt({ ftruncate(rawValue, off_t(size)) }) == 0 else {
            throw FileSystemError(currentErrno, "truncate", path: "")
        }
    }

    /// Maps `size` bytes privately; the `Data` unmaps when released.
    ///
    /// The pages are writable and copy-on-write (`MAP_PRIVATE`): a `Data`
    /// that owns its bytes may be mutated in place by its holder
    /// (`replaceSubrange` on a uniquely referenced value does), and a
    /// read-only mapping would crash that holder, while a private writable
    /// one gives the writer its own copy of the page and never reaches the file.
    public func map(size: Int) throws(FileSystemError) -> Data {
        guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, rawValue, 0),
              address != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw FileSystemError(currentErrno, "map", path: "")
        }
        return Data(bytesNoCopy: address, count: size, deallocator: .custom { pointer, count in
            _ = munmap(pointer, count)
        })
    }

    /// Copies everything from the file position to the end into `output`
    /// at its position: `copy_file_range` where the kernel and file system
    /// can (the bytes never pass through this process, and a reflink file
    /// system shares the blocks), else a read and write loop. Returns the
    /// bytes copied.
    @discardableResult
    public func copyContents(to output: FileDescriptor) throws(FileSystemError) -> UInt64 {
        var copied: UInt64 = 0
        #if os(Linux)
        while true {
            let count = retryingOnInterrupt { c_copy_file_range(rawValue, nil, output.rawValue, nil, 1 << 30, 0) }
            if count > 0 { copied += UInt64(count); continue }
            if count == 0 { return copied }
            // Another file system, an old kernel, or a special file: fall
            // back (only before the first byte, so nothing is copied twice).
            if copied == 0 && (errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL) { break }
            throw FileSystemError(currentErrno, "copy", path: "")
        }
        #endif
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try readSome(into: buffer)
            if count == 0 { return copied }
            try output.writeFully(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            copied += UInt64(count)
        }
    }
}
