import FileSystem
import SystemPackage
import Foundation

/// An open file in a container for random access: reads and writes at an
/// offset, appends, and truncation. Writes are counted in the container's
/// ``AppContainer/bytesWritten``. They are in place (not atomic); use
/// ``AppContainer/writeAtomically(_:to:)`` for whole-file replacement.
///
/// The handle owns its descriptor; ``close()`` releases it early, otherwise
/// it is released with the handle.
public final class ContainerFileHandle {
    /// How a file is opened.
    public enum Mode: Sendable {
        /// Reading only.
        case read
        /// Reading and writing an existing file.
        case readWrite
        /// Reading and writing, creating the file (mode 0644) if missing.
        case readWriteCreate
        /// Reading and writing, creating the file (mode 0644) if missing
        /// and emptying it if present (`O_TRUNC`), in one call. A file the
        /// call creates is not truncated, which ext4 would otherwise flush
        /// at its `close` (`auto_da_alloc`) as it does a file cut to zero.
        case readWriteEmptied
    }

    /// The container-relative path.
    public let path: String
    private var fd: FileDescriptor?
    private let counter: WriteCounter?

    init(path: String, fd: FileDescriptor, counter: WriteCounter?) {
        self.path = path
        self.fd = fd
        self.counter = counter
    }

    deinit { fd?.closeQuietly() }

    private func descriptor() throws(ContainerError) -> FileDescriptor {
        guard let fd else { throw ContainerError(.io(errno: 9), path: path, "the handle is closed") }
        return fd
    }

    /// The file's current size.
    public func size() throws -> UInt64 {
        let fd = try descriptor()
        do { return try fd.status().size }
        catch { throw ContainerError(error, path: path, "read the size") }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    public func read(at offset: UInt64, count: Int) throws -> Data {
        guard count >= 0 else { throw ContainerError(.invalidPath, path: path, "a negative count") }
        let fd = try descriptor()
        do { return try fd.read(count: count, at: offset) }
        catch { throw ContainerError(error, path: path, "read") }
    }

    /// Writes `data` at `offset`, extending the file if needed.
    public func write(_ data: Data, at offset: UInt64) throws {
        try data.withUnsafeBytes { bytes in try write(bytes, at: offset) }
    }

    /// Writes `bytes` at `offset`, extending the file if needed, with no
    /// `Data` made around them (a download writes each chunk it receives
    /// straight from the network buffer).
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        let fd = try descriptor()
        do { try fd.writeFully(bytes, at: offset) }
        catch { throw ContainerError(error, path: path, "write") }
        counter?.add(bytes.count)
    }

    /// Writes `data` at the end of the file and returns the offset it
    /// starts at. One writer per file: the end is read, then written.
    @discardableResult
    public func append(_ data: Data) throws -> UInt64 {
        let offset = try size()
        try write(data, at: offset)
        return offset
    }

    /// Cuts or extends the file to `size` bytes.
    public func truncate(to size: UInt64) throws {
        let fd = try descriptor()
        do { try fd.truncate(to: size) }
        catch { throw ContainerError(error, path: path, "truncate") }
    }

    /// Starts writing the whole file's data to the device and returns
    /// without waiting (``FileDescriptor/startWriteback(offset:count:)``
    /// to the end of the file). A hint, not a flush: a writer that flushes
    /// many files at once later calls it as each is complete, so the device
    /// works while the next ones are made.
    public func startWriteback() {
        fd?.startWriteback(offset: 0, count: 0)
    }

    /// Flushes the file's data and metadata to the device (`fsync`).
    public func synchronize() throws {
        let fd = try descriptor()
        do { try fd.sync() }
        catch { throw ContainerError(error, path: path, "flush") }
    }

    /// The extended attribute `name` of the file, or nil when it has none
    /// (or the file system keeps none).
    public func extendedAttribute(_ name: String) throws -> [UInt8]? {
        let fd = try descriptor()
        do { return try fd.extendedAttribute(name) }
        catch { throw ContainerError(error, path: path, "read an extended attribute") }
    }

    /// Sets the extended attribute `name` of the file.
    public func setExtendedAttribute(_ name: String, _ value: [UInt8]) throws {
        let fd = try descriptor()
        do { try fd.setExtendedAttribute(name, value) }
        catch { throw ContainerError(error, path: path, "set an extended attribute") }
    }

    /// Removes the extended attribute `name` of the file, if it has it.
    public func removeExtendedAttribute(_ name: String) throws {
        let fd = try descriptor()
        do { try fd.removeExtendedAttribute(name) }
        catch { throw ContainerError(error, path: path, "remove an extended attribute") }
    }

    /// Releases the descriptor; later calls fail.
    public func close() {
        fd?.closeQuietly()
        fd = nil
    }
}

extension AppContainer {
    /// Opens a file for random access. Writing modes follow the same rules
    /// as every write (not at the root, not in the bundle).
    public func openFile(_ path: String, mode: ContainerFileHandle.Mode = .read) throws -> ContainerFileHandle {
        let checked = try ContainerPath(path)
        let access: FileDescriptor.AccessMode = mode == .read ? .readOnly : .readWrite
        let options: FileDescriptor.OpenOptions = switch mode {
        case .read, .readWrite: []
        case .readWriteCreate: .create
        case .readWriteEmptied: [.create, .truncate]
        }
        if mode != .read { try checkWritable(checked, action: "open for writing") }
        // A link as the final name is followed only for reading: a created or
        // written file is always the name itself.
        let fd = try directory.open(checked, access, options: options, followFinal: mode == .read, action: "open")
        return try handle(for: fd, path: path, mode: mode)
    }

    /// Opens an existing file for random access, or returns nil when
    /// nothing is at `path`: for a file whose absence is expected (a
    /// download's part), without the search for a name spelled in another
    /// case that a failed ``openFile(_:mode:)`` makes.
    public func openFileIfPresent(_ path: String, mode: ContainerFileHandle.Mode = .read) throws -> ContainerFileHandle? {
        let checked = try ContainerPath(path)
        if mode != .read { try checkWritable(checked, action: "open for writing") }
        guard let fd = try directory.openIfPresent(checked, mode == .read ? .readOnly : .readWrite, followFinal: mode == .read,
                                                   action: "open") else { return nil }
        return try handle(for: fd, path: path, mode: mode)
    }

    /// The handle on an opened descriptor; a directory is refused.
    private func handle(for fd: FileDescriptor, path: String, mode: ContainerFileHandle.Mode) throws -> ContainerFileHandle {
        if let info = try? fd.status(), info.isDirectory {
            fd.closeQuietly()
            throw ContainerError(.isDirectory, path: path, "cannot open: it is a directory")
        }
        return ContainerFileHandle(path: path, fd: fd, counter: mode == .read ? nil : counter)
    }
}
