/// Finds names that differ only by letter case within one directory while a
/// depth-first walk runs, holding the names of the directories still open
/// on the walk's path only (not of the whole tree).
struct CaseCollisionTracker {
    /// Names of one directory that fold to the same name.
    struct Collision {
        var directory: String
        var names: [String]
        var bytes: UInt64
    }

    private var open: [(directory: String, names: [String: [(name: String, bytes: UInt64)]])] = []
    private(set) var collisions: [Collision] = []

    /// Records `name` (of `bytes`) in `directory` ("" for the walk's root).
    /// The walk must visit a directory's entries before leaving it.
    mutating func visit(directory: String, name: String, bytes: UInt64) {
        while let top = open.last, top.directory != directory, !Self.contains(top.directory, directory) { close() }
        if open.last?.directory != directory { open.append((directory, [:])) }
        open[open.count - 1].names[name.lowercased(), default: []].append((name, bytes))
    }

    /// Closes every open directory; call once the walk is over.
    mutating func finish() {
        while !open.isEmpty { close() }
    }

    private mutating func close() {
        guard let top = open.popLast() else { return }
        for group in top.names.values where group.count > 1 {
            collisions.append(Collision(directory: top.directory, names: group.map(\.name).sorted(),
                                        bytes: group.reduce(0) { $0 + $1.bytes }))
        }
    }

    /// Whether `ancestor` contains `path`.
    private static func contains(_ ancestor: String, _ path: String) -> Bool {
        ancestor.isEmpty || path.hasPrefix(ancestor + "/")
    }
}
