import FileSystem
import SystemPackage

/// The directory a migration is working in, under a base directory, kept
/// open while consecutive items share it (the plan is in tree order, so
/// they usually do). Every directory is opened one component at a time
/// with `O_NOFOLLOW`: no link is ever followed, inside the container or out
/// of it, so a link swapped in for a directory makes the step fail instead
/// of leading elsewhere.
///
/// A directory in which names changed is flushed before the cursor leaves
/// it (with ``Durability/full``), so the journal, written after, never
/// counts a move that a power loss could undo.
final class DirectoryCursor {
    private let base: FileDescriptor
    private let durability: Durability
    private var currentPath: String?
    private var current: FileDescriptor?
    private var changed = false

    /// A cursor under `base` (not owned: the caller keeps it open).
    init(base: FileDescriptor, durability: Durability) {
        self.base = base
        self.durability = durability
    }

    deinit { current?.closeQuietly() }

    /// The directory at `path` ("" is the base), opened without following
    /// links; missing directories are created when `creating`, else nil.
    func directory(_ path: String, creating: Bool) throws(FileSystemError) -> FileDescriptor? {
        if let current, currentPath == path { return current }
        try leave()
        guard let fd = try Self.open(path, in: base, creating: creating, flushing: durability == .full) else { return nil }
        current = fd
        currentPath = path
        return fd
    }

    /// Opens the directory at `path` under `base` one component at a time
    /// with `O_NOFOLLOW`, creating missing ones when `creating` (each new
    /// one flushed into its parent when `flushing`); nil when one is missing
    /// and not `creating`. The caller closes the result.
    static func open(_ path: String, in base: FileDescriptor, creating: Bool,
                     flushing: Bool) throws(FileSystemError) -> FileDescriptor? {
        var fd = try base.open(".", .readOnly, options: .directory)
        for component in path.split(separator: "/").map(String.init) {
            let next: FileDescriptor
            do { next = try fd.openDirectory(component) } catch {
                guard error.isNotFound, creating else {
                    fd.closeQuietly()
                    if error.isNotFound { return nil }
                    throw error.with(path: path)
                }
                do {
                    try fd.makeDirectoryIfMissing(component)
                    if flushing { try fd.sync() }
                    next = try fd.openDirectory(component)
                } catch {
                    fd.closeQuietly()
                    throw error.with(path: path)
                }
            }
            fd.closeQuietly()
            fd = next
        }
        return fd
    }

    /// Notes that a name in the current directory changed.
    func noteChange() { changed = true }

    /// Flushes the current directory if a name in it changed.
    func flush() throws(FileSystemError) {
        guard changed, let current else { return }
        if durability == .full { try current.sync() }
        changed = false
    }

    /// Flushes and closes the current directory.
    func leave() throws(FileSystemError) {
        try flush()
        current?.closeQuietly()
        current = nil
        currentPath = nil
    }
}
