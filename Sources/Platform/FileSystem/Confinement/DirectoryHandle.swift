import SystemPackage

/// A directory held open for the value's life: every lookup through it
/// stays beneath it (``FileDescriptor/openBeneath(_:_:options:permissions:followFinal:resolution:)``),
/// so neither a `..`, an absolute link, nor a directory renamed by another
/// process can lead a path outside.
///
/// A container, a bundle, a device, a backup and a restore target are each
/// reached through one. The descriptor closes when the last reference goes.
public final class DirectoryHandle: Sendable {
    /// The open directory.
    public let descriptor: FileDescriptor
    /// How paths beneath it are resolved.
    public let resolution: PathResolution
    /// The path it was opened at, for messages only (never reopened).
    public let path: String

    /// Opens the directory at `path`; with `followLinks` false a link there
    /// is refused.
    public init(openingAt path: String, resolution: PathResolution = .automatic,
                followLinks: Bool = true) throws(FileSystemError) {
        descriptor = try FileDescriptor.openDirectory(atPath: path, followLinks: followLinks)
        self.resolution = resolution
        self.path = path
    }

    /// Takes ownership of an open directory descriptor.
    public init(adopting descriptor: FileDescriptor, path: String, resolution: PathResolution = .automatic) {
        self.descriptor = descriptor
        self.resolution = resolution
        self.path = path
    }

    deinit { descriptor.closeQuietly() }

    /// Opens `relativePath` beneath this directory (see
    /// ``FileDescriptor/openBeneath(_:_:options:permissions:followFinal:resolution:)``).
    /// The caller closes the result.
    public func open(_ relativePath: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
                     permissions: UInt32 = 0o644, followFinal: Bool = true) throws(FileSystemError) -> FileDescriptor {
        try descriptor.openBeneath(relativePath, access, options: options, permissions: permissions,
                                   followFinal: followFinal, resolution: resolution)
    }

    /// The directory at `relativePath` beneath this one, as a handle of its
    /// own; a link as its last component is refused.
    public func directory(_ relativePath: String) throws(FileSystemError) -> DirectoryHandle {
        let fd = try open(relativePath, .readOnly, options: .directory, followFinal: false)
        return DirectoryHandle(adopting: fd, path: relativePath.isEmpty ? path : path + "/" + relativePath,
                               resolution: resolution)
    }

    /// Runs `body` with the open directory that holds `relativePath`'s last
    /// component, and that component. A path with no component ("") is
    /// `EINVAL`: it names this directory itself, which has no parent here.
    public func withParent<T>(of relativePath: String,
                              _ body: (FileDescriptor, String) throws(FileSystemError) -> T) throws(FileSystemError) -> T {
        let (parentPath, name) = Self.split(relativePath)
        guard !name.isEmpty else { throw FileSystemError(.invalidArgument, "find the parent of", path: relativePath) }
        let parent = try open(parentPath, .readOnly, options: .directory)
        defer { parent.closeQuietly() }
        return try body(parent, name)
    }

    /// A relative path's directory part and last component.
    public static func split(_ relativePath: String) -> (parent: String, name: String) {
        let trimmed = relativePath.hasSuffix("/") ? String(relativePath.dropLast()) : relativePath
        guard let slash = trimmed.lastIndex(of: "/") else { return ("", trimmed) }
        return (String(trimmed[..<slash]), String(trimmed[trimmed.index(after: slash)...]))
    }
}
