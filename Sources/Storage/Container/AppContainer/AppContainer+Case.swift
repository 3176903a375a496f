/// Letter case. iOS devices use a case-sensitive file system while the
/// Simulator's host usually does not, so code that works in the Simulator
/// can miss its files on a device. Lookups here are always exact-case (on a
/// case-insensitive host each name is checked against the directory's
/// listing), and misses that are only a matter of case say so.
extension AppContainer {
    /// The path as it is spelled on disk when `path` misses only because of
    /// letter case (`"documents/Notes.TXT"` → `"Documents/notes.txt"`); nil
    /// when the path exists as written or does not exist in any spelling.
    public func suggestedSpelling(for path: String) throws -> String? {
        let path = try ContainerPath(path)
        if !directory.verifiesCase, fileExists(path.text) { return nil }
        return directory.caseSuggestion(for: path)
    }

    /// Groups of names in a directory that differ only by letter case
    /// (`["Data.json", "data.json"]`): they are distinct on iOS but collide
    /// on a case-insensitive file system. With `recursive`, subdirectories
    /// are searched too and the names are container-relative paths.
    public func namesDifferingOnlyByCase(in path: String, recursive: Bool = false) throws -> [[String]] {
        let start = try ContainerPath(path)
        var groups: [[String]] = []
        var pending = [start]
        while let current = pending.popLast() {
            let names = try contentsOfDirectory(current.text)
            var byFolded: [String: [String]] = [:]
            for name in names { byFolded[name.lowercased(), default: []].append(name) }
            for (_, group) in byFolded where group.count > 1 {
                groups.append(group.sorted().map { current.isRoot ? $0 : current.normalized + "/" + $0 })
            }
            guard recursive else { continue }
            for name in names {
                let child = current.appending(name)
                if let info = try? attributes(child.normalized), info.isDirectory { pending.append(child) }
            }
        }
        return groups.sorted { $0.first ?? "" < $1.first ?? "" }
    }
}
