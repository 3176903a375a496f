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
///
/// The cursor keeps the directories from the base down to the current one,
/// so the next item's directory is one `openat` away whether the plan goes
/// down (in tree order) or back up (deepest first): a tree 10,000 levels
/// deep costs 10,000 opens, not 50 million. At most ``heldLimit`` of them
/// stay open; one closed for that is opened again, by name from the
/// nearest open one, when the cursor comes back up to it.
final class DirectoryCursor {
    /// Directories kept open at most (the base apart).
    static let heldLimit = 64

    private let base: FileDescriptor
    private let durability: Durability
    /// The path of the current directory ("" is the base), when there is one.
    private var currentPath: String?
    /// The components from the base to the current directory, and their
    /// descriptors (nil where closed to keep the bound).
    private var components: [String] = []
    private var held: [FileDescriptor?] = []
    private var changed = false

    /// A cursor under `base` (not owned: the caller keeps it open).
    init(base: FileDescriptor, durability: Durability) {
        self.base = base
        self.durability = durability
    }

    deinit { closeAll() }

    private var current: FileDescriptor? {
        guard currentPath != nil else { return nil }
        return held.isEmpty ? base : held[held.count - 1]
    }

    /// The directory at `path` ("" is the base), opened without following
    /// links; missing directories are created when `creating`, else nil.
    func directory(_ path: String, creating: Bool) throws(FileSystemError) -> FileDescriptor? {
        if let current, currentPath == path { return current }
        try flush()
        currentPath = nil
        // What stays: the common ancestors of the current directory and `path`.
        let rest: [String]
        let kept = components.joined(separator: "/")
        if components.isEmpty {
            rest = Self.split(path)
        } else if path.hasPrefix(kept + "/") {
            rest = Self.split(String(Substring(path.utf8.dropFirst(kept.utf8.count + 1))))
        } else {
            let wanted = Self.split(path)
            var common = 0
            while common < wanted.count, common < components.count, wanted[common] == components[common] { common += 1 }
            pop(to: common)
            rest = Array(wanted[common...])
        }
        var fd = try reopenTop(creating: creating, path: path)
        for component in rest {
            guard let next = try Self.openOrMake(component, in: fd, creating: creating, flushing: durability == .full, path: path) else {
                return nil
            }
            components.append(component)
            held.append(next)
            let oldest = held.count - 1 - Self.heldLimit
            if oldest >= 0, let closing = held[oldest] {
                closing.closeQuietly()
                held[oldest] = nil
            }
            fd = next
        }
        currentPath = path
        return fd
    }

    private static func split(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    /// Drops the directories below the first `count` components.
    private func pop(to count: Int) {
        while components.count > count {
            held.removeLast()?.closeQuietly()
            components.removeLast()
        }
    }

    /// The deepest directory kept, opened again (with those above it that
    /// the bound allows) if the bound closed it.
    private func reopenTop(creating: Bool, path: String) throws(FileSystemError) -> FileDescriptor {
        guard let last = held.indices.last else { return base }
        if let top = held[last] { return top }
        var start = last
        while start >= 0 && held[start] == nil { start -= 1 }
        var fd = start >= 0 ? (held[start] ?? base) : base
        for index in (start + 1)...last {
            guard let next = try Self.openOrMake(components[index], in: fd, creating: false, flushing: false, path: path) else {
                throw FileSystemError(.noSuchFileOrDirectory, "open", path: path)
            }
            held[index] = next
            if index - 1 > start, index - 1 < last - Self.heldLimit, let closing = held[index - 1] {
                closing.closeQuietly()
                held[index - 1] = nil
            }
            fd = next
        }
        return fd
    }

    /// Opens the directory `component` of `fd` without following a link,
    /// making it when missing and `creating`; nil when missing otherwise.
    private static func openOrMake(_ component: String, in fd: FileDescriptor, creating: Bool, flushing: Bool,
                                   path: String) throws(FileSystemError) -> FileDescriptor? {
        do { return try fd.openDirectory(component) } catch {
            guard error.isNotFound, creating else {
                if error.isNotFound { return nil }
                throw error.with(path: path)
            }
            do {
                try fd.makeDirectoryIfMissing(component)
                if flushing { try fd.sync() }
                return try fd.openDirectory(component)
            } catch {
                throw error.with(path: path)
            }
        }
    }

    private func closeAll() {
        for fd in held { fd?.closeQuietly() }
        held = []
        components = []
    }

    /// Opens the directory at `path` under `base` one component at a time
    /// with `O_NOFOLLOW`, creating missing ones when `creating` (each new
    /// one flushed into its parent when `flushing`); nil when one is missing
    /// and not `creating`. The caller closes the result.
    static func open(_ path: String, in base: FileDescriptor, creating: Bool,
                     flushing: Bool) throws(FileSystemError) -> FileDescriptor? {
        var fd = try base.open(".", .readOnly, options: .directory)
        for component in split(path) {
            let next: FileDescriptor?
            do { next = try openOrMake(component, in: fd, creating: creating, flushing: flushing, path: path) } catch {
                fd.closeQuietly()
                throw error
            }
            fd.closeQuietly()
            guard let next else { return nil }
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

    /// Flushes and closes the current directory (and those above it).
    func leave() throws(FileSystemError) {
        try flush()
        closeAll()
        currentPath = nil
    }
}
