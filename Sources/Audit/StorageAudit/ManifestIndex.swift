import CacheManifest
import Container
import FileSystem
import Foundation

/// The cache manifest's entries by directory, read before the walk, so the
/// walk checks each cache file by its name in the directory it is in (no
/// path is made for a file the manifest knows, and no list of every cache
/// file is kept for rule A2).
struct ManifestIndex {
    /// Entries (name to recorded size) by the path before their last "/"
    /// (nil for a path without one), so that a path and its pair are one
    /// to one.
    private var directories: [String?: [String: Int64]] = [:]
    /// How many entries the manifest has.
    private(set) var count = 0

    /// Reads `container`'s manifest; nil when it has none.
    static func read(_ container: AppContainer) throws(CacheManifestError) -> ManifestIndex? {
        var index = ManifestIndex()
        // Rows come by path, so a directory's entries mostly follow one
        // another: they are gathered apart and stored when the directory
        // changes, one hash of the directory's path per run, not per entry.
        var run: (directory: String?, names: [String: Int64]) = (nil, [:])
        let found = try CacheManifest.forEachRecordedFile(in: container) { path, size in
            let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
            let directory = slash.map { path[..<$0] }
            let name = String(slash.map { path[path.index(after: $0)...] } ?? path[...])
            if !run.names.isEmpty && !Self.same(run.directory, directory) {
                index.store(run)
                run.names = [:]
            }
            if run.names.isEmpty { run.directory = directory.map(String.init) }
            run.names[name] = size
            index.count += 1
        }
        index.store(run)
        return found ? index : nil
    }

    private mutating func store(_ run: (directory: String?, names: [String: Int64])) {
        guard !run.names.isEmpty else { return }
        directories[run.directory, default: [:]].merge(run.names) { $1 }
    }

    private static func same(_ stored: String?, _ directory: Substring?) -> Bool {
        switch (stored, directory) {
        case (nil, nil): true
        // `==` compares the bytes at once where both are NFC (ASCII paths
        // are); `utf8.elementsEqual` went a byte at a time through the
        // views' indices, a third of reading the manifest.
        case let (stored?, directory?): stored[...] == directory
        default: false
        }
    }

    /// The entries directly in `directory` (a container-relative path).
    func names(in directory: String) -> [String: Int64]? { directories[directory] }

    /// Whether the manifest lists `path`.
    func contains(_ path: String) -> Bool {
        let (directory, name) = Self.split(path)
        return directories[directory]?[name] != nil
    }

    /// Calls `body` with each entry's path, one directory and name at a time.
    func forEach(_ body: (_ directory: String?, _ name: String, _ size: Int64) -> Void) {
        for (directory, names) in directories {
            for (name, size) in names { body(directory, name, size) }
        }
    }

    private static func split(_ path: String) -> (String?, String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (nil, path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}

/// A manifest being read on a thread of its own, from its start until
/// ``wait()`` first returns it.
final class ManifestLoad: Sendable {
    /// Set once, by the reading thread, when it is done: the manifest (nil
    /// when there is none) or why it could not be read.
    private let result = Locked<Result<ManifestIndex?, CacheManifestError>?>(nil)

    /// Starts reading `container`'s manifest.
    init(_ container: AppContainer) {
        let thread = Thread { [result] in
            let read: Result<ManifestIndex?, CacheManifestError>
            do throws(CacheManifestError) { read = .success(try ManifestIndex.read(container)) } catch { read = .failure(error) }
            result.withLock { $0 = read }
        }
        thread.start()
    }

    /// The manifest (nil when there is none or it could not be read), once read.
    func wait() -> ManifestIndex? {
        let read = result.withLock(when: { $0 != nil }) { $0 } ?? nil
        guard case .success(let index)? = read else { return nil }
        return index
    }

    /// Why the manifest could not be read, once ``wait()`` has returned.
    var error: CacheManifestError? {
        guard case .failure(let failure)? = result.withLock({ $0 }) else { return nil }
        return failure
    }
}
