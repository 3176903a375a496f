#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// The package's one tree walk, which every other walk calls
/// (``FileDescriptor/walkTree(repairedNames:_:)``, removal, measuring,
/// copying, ownership).
///
/// It is iterative: the directories it is in are an explicit stack, so a
/// tree an app made 10,000 levels deep costs heap, not the thread's stack.
/// At most ``heldLimit`` of them stay open: deeper than that, the oldest
/// are closed, and one is opened again when the walk comes back up to it,
/// through the `..` of the directory below it, and failing that by name
/// from the nearest one still open (with `O_NOFOLLOW`). Either way the
/// opened directory must be the one the walk saw (same device and inode),
/// so a directory swapped meanwhile is never walked in place of the one
/// seen: a walk that skips leaves it out with all it holds, a copy fails.
struct TreeWalker {
    /// How many directories a walk keeps open (its callers' own descriptors
    /// apart): a walk in a process limited to 256 descriptors still works.
    static let defaultHeldLimit = 64
    /// The longest relative path a walk that makes paths goes down to:
    /// each open directory keeps its path, so the paths' total grows as the
    /// square of the depth; past this (about 8 times PATH_MAX) the walk
    /// stops with `ENAMETOOLONG`, saying where. A walk that makes no paths
    /// (removal, measuring) has no such limit.
    static let maximumPathBytes = 32_768

    /// What a walk does with a directory that is not the one it saw.
    enum SwapHandling {
        /// Leave it out with all it holds (it is not what was seen).
        case skip
        /// Fail with `ESTALE`, naming it and saying what was being done.
        case fail(operation: String)
    }

    /// One entry as the walker hands it over.
    struct Step {
        var entry: TreeEntry
        /// Its name, with its bytes when it is not UTF-8.
        var name: DirectoryEntryName
        /// The open directory that holds it.
        var parent: FileDescriptor
        /// The companion of that directory (a copy's destination), if any.
        var parentCompanion: FileDescriptor?
    }

    /// A directory on the stack.
    private struct Frame {
        var step: Step?  // nil for the root
        var status: FileStatus
        var descriptor: FileDescriptor?
        var companion: FileDescriptor?
        var companionStatus: FileStatus?
        var names: [DirectoryEntryName]
        var next = 0
        var path: String
        var repaired: Bool
        var depth: Int  // of its entries
    }

    var heldLimit = defaultHeldLimit
    var makesPaths = true
    var repairedNames: RepairedNames = .refuse
    var swapped: SwapHandling = .skip

    /// Walks `root` (not closed; its companion neither), depth first, names
    /// in bytewise order. `visit` gets each entry and decides whether a
    /// directory is entered; `enter` gets a directory just opened and
    /// returns its companion (closed by the walker after `leave`); `leave`
    /// gets a directory whose entries are all done, with its companion,
    /// while its parent is open again (`step.parent`).
    func run(_ root: FileDescriptor, companion rootCompanion: FileDescriptor? = nil,
             visit: (Step) throws(FileSystemError) -> TreeWalkDecision,
             enter: (Step, FileDescriptor) throws(FileSystemError) -> FileDescriptor? = { _, _ in nil },
             leave: (Step, FileDescriptor?) throws(FileSystemError) -> Void = { _, _ in }) throws(FileSystemError) {
        let window = max(2, rootCompanion == nil ? heldLimit : heldLimit / 2)
        var stack = [Frame(step: nil, status: try root.status(), descriptor: root, companion: rootCompanion,
                           companionStatus: try rootCompanion?.status(), names: try root.sortedEntryNames(),
                           path: "", repaired: false, depth: 0)]
        defer {
            // A failure leaves the walker's own descriptors open: close them.
            for frame in stack.dropFirst() {
                frame.descriptor?.closeQuietly()
                frame.companion?.closeQuietly()
            }
        }
        while let top = stack.last {
            guard top.next < top.names.count else {
                try pop(&stack, leave: leave)
                continue
            }
            stack[stack.count - 1].next += 1
            let name = top.names[top.next]
            guard let parent = top.descriptor else { break }  // never: the top is always open
            let path = !makesPaths ? name.name : top.path.isEmpty ? name.name : top.path + "/" + name.name
            if name.isRepaired && repairedNames == .refuse {
                throw FileSystemError(.illegalByteSequence, "walk (a name that is not valid UTF-8, shown with U+FFFD)", path: path)
            }
            let seen: FileStatus?
            do { seen = try parent.statusIfPresent(of: name) } catch { throw error.with(path: path) }
            guard let info = seen else { continue }  // removed meanwhile
            let repaired = top.repaired || name.isRepaired
            let entry = TreeEntry(directoryPath: makesPaths ? top.path : "", name: name.name, status: info,
                                  depth: top.depth, hasRepairedName: repaired)
            let step = Step(entry: entry, name: name, parent: parent, parentCompanion: top.companion)
            guard try visit(step) == .descend, info.isDirectory else { continue }
            if makesPaths && path.utf8.count > Self.maximumPathBytes {
                throw FileSystemError(.fileNameTooLong,
                                      "walk (deeper than \(Self.maximumPathBytes) bytes of path, at depth \(top.depth + 1))",
                                      path: String(path.prefix(512)) + "…")
            }
            guard let child = try openChild(step, seen: info, path: path) else { continue }
            var frame = Frame(step: step, status: info, descriptor: child, names: [], path: makesPaths ? path : "",
                              repaired: repaired, depth: top.depth + 1)
            do throws(FileSystemError) {
                frame.names = try child.sortedEntryNames()
                frame.companion = try enter(step, child)
                frame.companionStatus = try frame.companion?.status()
            } catch {
                child.closeQuietly()
                frame.companion?.closeQuietly()
                throw error.with(path: path)
            }
            stack.append(frame)
            // Keep the bound: close the directory that has just left the window.
            let oldest = stack.count - 1 - window
            if oldest >= 1 {
                stack[oldest].descriptor?.closeQuietly()
                stack[oldest].descriptor = nil
                stack[oldest].companion?.closeQuietly()
                stack[oldest].companion = nil
            }
        }
    }

    /// Opens the directory `step` names, only if it is the one seen; nil
    /// (skipping it) or `ESTALE` when it is not, as ``swapped`` says.
    private func openChild(_ step: Step, seen: FileStatus, path: String) throws(FileSystemError) -> FileDescriptor? {
        let child: FileDescriptor
        do { child = try step.parent.openDirectory(step.name) } catch {
            // Gone, or replaced by a link or a file since the lstat.
            if case .skip = swapped, error.isNotFound || error.isLoop || error.isNotDirectory { return nil }
            throw error.with(path: path)
        }
        let opened: FileStatus
        do { opened = try child.status() } catch { child.closeQuietly(); throw error.with(path: path) }
        if opened.isSameFile(as: seen) { return child }
        child.closeQuietly()
        if case .fail(let operation) = swapped { throw FileSystemError(.staleNFSFileHandle, operation, path: path) }
        return nil
    }

    /// Leaves the top directory: opens its parent again if the bound closed
    /// it, hands the directory to `leave`, and closes it.
    private func pop(_ stack: inout [Frame], leave: (Step, FileDescriptor?) throws(FileSystemError) -> Void) throws(FileSystemError) {
        guard let done = stack.popLast(), var step = done.step else { return }  // the root: the walk is over
        defer { done.companion?.closeQuietly() }
        let parentIndex = stack.count - 1
        if stack[parentIndex].descriptor == nil {
            let reopened: Bool
            do { reopened = try reopen(&stack, parentIndex, from: done) } catch { done.descriptor?.closeQuietly(); throw error }
            guard reopened else { done.descriptor?.closeQuietly(); return }
        }
        done.descriptor?.closeQuietly()
        guard let parent = stack[parentIndex].descriptor else { return }
        step.parent = parent
        step.parentCompanion = stack[parentIndex].companion
        try leave(step, done.companion)
    }

    /// Opens frame `index` (and its companion) again: through the `..` of
    /// `below`, the directory the walk is leaving, else by name down from
    /// the nearest frame still open. False when a directory on the way is
    /// not the one seen (with ``SwapHandling/skip``): the frames from it up
    /// are dropped, and the walk goes on in the one below it.
    private func reopen(_ stack: inout [Frame], _ index: Int, from below: Frame) throws(FileSystemError) -> Bool {
        let wantsCompanion = stack[index].companionStatus != nil
        if let up = try openSame("..", in: below.descriptor, as: stack[index].status) {
            if !wantsCompanion {
                stack[index].descriptor = up
                return true
            }
            if let companionUp = try openSame("..", in: below.companion, as: stack[index].companionStatus) {
                stack[index].descriptor = up
                stack[index].companion = companionUp
                return true
            }
            up.closeQuietly()
        }
        // Down by name from the nearest open frame (the root always is).
        var held = index - 1
        while held > 0 && stack[held].descriptor == nil { held -= 1 }
        var current = stack[held].descriptor, currentCompanion = stack[held].companion
        var owned = false  // whether `current` was opened here
        for level in (held + 1)...index {
            let name = stack[level].step?.entry.name ?? ""
            let nameBytes = stack[level].step?.name ?? DirectoryEntryName(name: name, bytes: nil)
            let next = try openSame(nameBytes, in: current, as: stack[level].status)
            let nextCompanion = try wantsCompanion ? openSame(nameBytes, in: currentCompanion, as: stack[level].companionStatus) : nil
            if next == nil || (wantsCompanion && nextCompanion == nil) {
                next?.closeQuietly()
                nextCompanion?.closeQuietly()
                if case .fail(let operation) = swapped {
                    if owned { current?.closeQuietly(); currentCompanion?.closeQuietly() }
                    throw FileSystemError(.staleNFSFileHandle, operation, path: stack[level].path.isEmpty ? name : stack[level].path)
                }
                if owned {
                    stack[level - 1].descriptor = current
                    stack[level - 1].companion = currentCompanion
                }
                stack.removeSubrange(level...)
                return false
            }
            if owned { current?.closeQuietly(); currentCompanion?.closeQuietly() }
            current = next
            currentCompanion = nextCompanion
            owned = true
        }
        stack[index].descriptor = current
        stack[index].companion = currentCompanion
        return true
    }

    /// Opens the directory `name` of `directory` without following a link,
    /// only if it is `seen`; nil when it is gone, not a directory, or
    /// another one.
    private func openSame(_ name: String, in directory: FileDescriptor?, as seen: FileStatus?) throws(FileSystemError) -> FileDescriptor? {
        try openSame(DirectoryEntryName(name: name, bytes: nil), in: directory, as: seen)
    }

    private func openSame(_ name: DirectoryEntryName, in directory: FileDescriptor?, as seen: FileStatus?) throws(FileSystemError) -> FileDescriptor? {
        guard let directory, let seen else { return nil }
        let opened: FileDescriptor
        do { opened = try directory.openDirectory(name) } catch {
            if error.isNotFound || error.isLoop || error.isNotDirectory { return nil }
            throw error
        }
        do throws(FileSystemError) {
            if try opened.status().isSameFile(as: seen) { return opened }
        } catch {
            opened.closeQuietly()
            throw error
        }
        opened.closeQuietly()
        return nil
    }
}
