/// Finds names that differ only by letter case within one directory, one
/// directory at a time as a depth-first walk closes it: only the names of
/// the directories still open on the walk's path are held.
struct CaseCollisionTracker {
    /// Names of one directory that fold to the same name.
    struct Collision {
        var directory: String
        var names: [String]
        var bytes: UInt64
    }

    /// Names of the open directories, each directory's after its parent's
    /// (a child is closed before its parent has more).
    private var names: [(name: String, bytes: UInt64)] = []
    private(set) var collisions: [Collision] = []

    /// Where the next directory's names start.
    var mark: Int { names.count }

    /// Records `name` (of `bytes`) in the directory open last.
    mutating func visit(name: String, bytes: UInt64) {
        names.append((name, bytes))
    }

    /// Checks the names recorded since `mark`, the whole of `directory`,
    /// and forgets them.
    mutating func close(_ directory: String, from mark: Int) {
        defer { names.removeSubrange(mark...) }
        // Two names that fold alike (`lowercased()`) differ, so at least one
        // has a capital or a non-ASCII letter: only those are folded, and a
        // directory of lower-case ASCII names needs no folding at all.
        // The others are looked up among the folded ones. A first pass
        // only looks for a clash, with no array a name: most directories
        // have none, and the groups are made only for one that has.
        var folded = Set<String>()
        var clash = false
        for entry in names[mark...] where !Self.foldsToItself(entry.name) {
            if !folded.insert(entry.name.lowercased()).inserted { clash = true; break }
        }
        guard !folded.isEmpty else { return }
        if !clash {
            clash = names[mark...].contains { Self.foldsToItself($0.name) && folded.contains($0.name) }
        }
        guard clash else { return }
        var groups: [String: [(name: String, bytes: UInt64)]] = [:]
        for entry in names[mark...] where !Self.foldsToItself(entry.name) {
            groups[entry.name.lowercased(), default: []].append(entry)
        }
        for entry in names[mark...] where Self.foldsToItself(entry.name) { groups[entry.name]?.append(entry) }
        for group in groups.values where group.count > 1 {
            collisions.append(Collision(directory: directory, names: group.map(\.name).sorted(),
                                        bytes: group.reduce(0) { $0 + $1.bytes }))
        }
    }

    /// Whether `name` is ASCII without capitals, so `lowercased()` leaves it as it is.
    private static func foldsToItself(_ name: String) -> Bool {
        name.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
    }
}
