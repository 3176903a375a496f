import FileSystem
import SystemPackage

/// The directory a migration is working in, under a base directory, kept
/// open while consecutive items share it (the plan is in tree order, so
/// they usually do). Every directory is opened one component at a time
/// with `O_NOFOLLOW`: no link is ever followed, inside the container or out
/// of it, so a link swapped in for a directory makes the step fail instead
/// of leading elsewhere.
///
/// With ``Durability/full``, the names changed since the last ``flush()``
/// (renames, made and removed directories) are made durable by that flush,
/// which the migration calls before the journal counts them, so the journal
/// never counts a move that a power loss could undo. The flush is one
/// `syncfs` of the container's file system, not an `fsync` of each
/// directory as the cursor leaves it: a 10,000-deep tree changes 10,000
/// directories in a row, and their fsyncs took most of the 335 s that
/// migrating it took (issue 29, finding 11).
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
    /// The components joined by "/", as bytes, and where each ends in them.
    private var keptBytes: [UInt8] = []
    private var ends: [Int] = []
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
        currentPath = nil
        // What stays: the components the current directory and `path`
        // share. Found by comparing bytes with the kept path, not by
        // splitting `path`: the plan's paths in a 10,000-deep tree are
        // tens of kilobytes, and splitting each was most of a migration's
        // time.
        let wanted = Array(path.utf8)
        let common = sharedComponents(wanted)
        pop(to: common)
        var start = common == 0 ? 0 : ends[common - 1] + 1
        var fd = try reopenTop(creating: creating, path: path)
        // The rest, one component at a time (an absent directory ends the
        // loop at its first component, without reading the rest).
        while start < wanted.count {
            var end = start
            while end < wanted.count, wanted[end] != UInt8(ascii: "/") { end += 1 }
            let bytes = wanted[start..<end]
            start = end + 1
            if bytes.isEmpty { continue }
            let component = String(decoding: bytes, as: UTF8.self)
            guard let next = try Self.openOrMake(component, in: fd, creating: creating, path: path, made: { changed = true }) else {
                return nil
            }
            push(component, bytes)
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

    /// How many of the kept components begin `wanted` (a path's bytes).
    private func sharedComponents(_ wanted: [UInt8]) -> Int {
        let limit = min(wanted.count, keptBytes.count)
        var same = 0
        while same < limit, wanted[same] == keptBytes[same] { same += 1 }
        // The components whose bytes all matched: ends are ascending.
        var low = 0, high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= same { low = middle + 1 } else { high = middle }
        }
        // The last of them counts only if `wanted` has a boundary there too.
        if low > 0, ends[low - 1] == same, same < wanted.count, wanted[same] != UInt8(ascii: "/") { low -= 1 }
        return low
    }

    private static func split(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    /// Keeps `component` (whose bytes are `bytes`) below the current ones.
    private func push(_ component: String, _ bytes: ArraySlice<UInt8>) {
        if !keptBytes.isEmpty { keptBytes.append(UInt8(ascii: "/")) }
        keptBytes.append(contentsOf: bytes)
        ends.append(keptBytes.count)
        components.append(component)
    }

    /// Drops the directories below the first `count` components.
    private func pop(to count: Int) {
        while components.count > count {
            held.removeLast()?.closeQuietly()
            components.removeLast()
            ends.removeLast()
        }
        keptBytes.removeLast(keptBytes.count - (ends.last ?? 0))
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
            guard let next = try Self.openOrMake(components[index], in: fd, creating: false, path: path) else {
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
    /// making it when missing and `creating` (and calling `made`); nil when
    /// missing otherwise.
    private static func openOrMake(_ component: String, in fd: FileDescriptor, creating: Bool, path: String,
                                   made: () throws(FileSystemError) -> Void = {}) throws(FileSystemError) -> FileDescriptor? {
        do { return try fd.openDirectory(component) } catch {
            guard error.isNotFound, creating else {
                if error.isNotFound { return nil }
                throw error.with(path: path)
            }
            do {
                try fd.makeDirectoryIfMissing(component)
                try made()
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
        keptBytes = []
        ends = []
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
            do {
                next = try openOrMake(component, in: fd, creating: creating, path: path) { () throws(FileSystemError) in
                    if flushing { try fd.sync() }
                }
            } catch {
                fd.closeQuietly()
                throw error
            }
            fd.closeQuietly()
            guard let next else { return nil }
            fd = next
        }
        return fd
    }

    /// Notes that a name under the base changed.
    func noteChange() { changed = true }

    /// Makes every name changed since the last flush durable (one `syncfs`
    /// of the base's file system), when the durability asks for it.
    func flush() throws(FileSystemError) {
        guard changed else { return }
        if durability == .full { try base.syncFileSystem() }
        changed = false
    }

    /// Flushes and closes the current directory (and those above it).
    func leave() throws(FileSystemError) {
        try flush()
        closeAll()
        currentPath = nil
    }
}
