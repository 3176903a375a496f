/// The directories a dynamically linked program loads its code from, found
/// as the loader finds them: its interpreter (`PT_INTERP`), then each
/// `DT_NEEDED` library searched in `DT_RPATH` (when the object has no
/// `DT_RUNPATH`), `LD_LIBRARY_PATH`, `DT_RUNPATH`, then the system's
/// directories (those in `/etc/ld.so.conf.d` and the standard ones), and
/// the same again for every library found.
///
/// `$ORIGIN` (and `${ORIGIN}`) expand to the directory of the object that
/// names them, with links resolved. The program's own directory is not
/// among the results (unless a library it needs is there). A script (`#!`) is searched through its
/// interpreter. A file that is not ELF, or malformed, contributes nothing
/// beyond its own directory: the kernel and loader decide whether it runs.
///
/// ```swift
/// let search = LibrarySearch.directories(for: "/opt/app/App")
/// // ["/lib64", "/usr/lib/x86_64-linux-gnu", "/opt/swift/usr/lib/swift/linux", …]
/// ```
public enum LibrarySearch {
    /// The standard directories the loader searches last.
    public static let standardDirectories = ["/lib", "/usr/lib", "/lib64", "/usr/lib64",
                                             "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                             "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]

    /// The most objects followed (a hostile dependency graph stays bounded).
    static let objectLimit = 512

    /// The directories holding `executable`'s interpreter and every library
    /// it loads, directly or not, in the order found, without repeats.
    /// `libraryPath` is the program's `LD_LIBRARY_PATH`, if it has one.
    ///
    /// Directories that lie beneath one of `excluded` (compared with every
    /// link resolved, so a link elsewhere does not hide them) are left out:
    /// a hostile program's run path must not open other apps' bundles or
    /// containers to it.
    public static func directories(for executable: String, libraryPath: String? = nil,
                                   excluding excluded: [String] = []) -> [String] {
        var search = Search(systemDirectories: systemDirectories(),
                            libraryPath: (libraryPath ?? "").split(separator: ":").map(String.init))
        search.visit(program: executable)
        let fences = excluded.flatMap { [$0, Platform.resolvedPath($0)].compactMap { $0 } }
        return search.directories.filter { directory in
            let forms = [directory, Platform.resolvedPath(directory)].compactMap { $0 }
            return !forms.contains { form in fences.contains { form == $0 || form.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") } }
        }
    }

    /// `/etc/ld.so.conf` and `/etc/ld.so.conf.d/*.conf` (their absolute
    /// directory lines; `include` lines name the `.d` folder), then the standard ones.
    static func systemDirectories() -> [String] {
        var lines: [Substring] = []
        if let text = Platform.readSmallTextFile("/etc/ld.so.conf") { lines += text.split(separator: "\n") }
        for name in Platform.directoryEntries("/etc/ld.so.conf.d").sorted() where name.hasSuffix(".conf") {
            if let text = Platform.readSmallTextFile("/etc/ld.so.conf.d/" + name) { lines += text.split(separator: "\n") }
        }
        var directories: [String] = []
        for line in lines {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("/") else { continue }
            let path = String(trimmed.prefix { $0 != " " && $0 != "\t" && $0 != "#" })
            if !directories.contains(path) { directories.append(path) }
        }
        for path in standardDirectories where !directories.contains(path) { directories.append(path) }
        return directories
    }

    /// One search: what was visited and found.
    struct Search {
        let systemDirectories: [String]
        let libraryPath: [String]
        var directories: [String] = []
        var visited: Set<String> = []

        init(systemDirectories: [String], libraryPath: [String]) {
            self.systemDirectories = systemDirectories
            self.libraryPath = libraryPath
        }

        mutating func note(directoryOf path: String) {
            let directory = LibrarySearch.directory(of: path)
            if !directories.contains(directory) { directories.append(directory) }
        }

        /// The program's own directory is not noted: a launch allows it, or
        /// not, by its own rules.
        mutating func visit(program path: String) {
            if let interpreter = LibrarySearch.scriptInterpreter(path) {
                visit(program: interpreter)
                return
            }
            visit(object: path, inheritedRPath: [])
        }

        /// Follows `path` and what it needs; `inheritedRPath` is the
        /// `DT_RPATH` of the objects that loaded it (searched for it too
        /// while it has no `DT_RUNPATH` of its own).
        mutating func visit(object path: String, inheritedRPath: [String]) {
            let key = Platform.resolvedPath(path) ?? path
            guard visited.count < LibrarySearch.objectLimit, visited.insert(key).inserted else { return }
            guard let image = try? ELFImage(contentsOf: path) else { return }
            let origin = LibrarySearch.directory(of: key)
            if let interpreter = image.interpreter {
                note(directoryOf: interpreter)
                if let resolved = Platform.resolvedPath(interpreter) { note(directoryOf: resolved) }
            }
            let expand = { (entries: [String]) in entries.map { LibrarySearch.expandOrigin($0, origin: origin) } }
            let rPath = image.runPath.isEmpty ? expand(image.rPath) + inheritedRPath : []
            let order = rPath + libraryPath + expand(image.runPath) + systemDirectories
            for name in image.needed {
                guard let found = find(name, in: order, like: image) else { continue }
                note(directoryOf: found)
                if let resolved = Platform.resolvedPath(found) { note(directoryOf: resolved) }
                visit(object: found, inheritedRPath: rPath)
            }
        }

        /// The first file called `name` in `directories` of the same class
        /// and machine as `image` (the loader skips the others), or `name`
        /// itself when it holds a slash.
        func find(_ name: String, in directories: [String], like image: ELFImage) -> String? {
            if name.contains("/") { return Platform.isRegularFile(name) ? name : nil }
            for directory in directories where !directory.isEmpty {
                let candidate = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                guard Platform.isRegularFile(candidate) else { continue }
                guard let other = try? ELFImage(contentsOf: candidate) else { continue }
                if other.is64Bit == image.is64Bit && other.machine == image.machine { return candidate }
            }
            return nil
        }
    }

    /// `$ORIGIN` and `${ORIGIN}` replaced by `origin`.
    static func expandOrigin(_ entry: String, origin: String) -> String {
        var result = ""
        var rest = Substring(entry)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("ORIGIN") {
                result += origin
                rest = after.dropFirst("ORIGIN".count)
            } else if after.hasPrefix("{ORIGIN}") {
                result += origin
                rest = after.dropFirst("{ORIGIN}".count)
            } else {
                result += "$"
                rest = after
            }
        }
        return result + rest
    }

    /// The directory part of a path ("/" for a file at the root, "." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The interpreter named on a script's `#!` line, or nil.
    static func scriptInterpreter(_ path: String) -> String? {
        guard let file = try? ELFFile(path: path) else { return nil }
        defer { file.close() }
        guard let head = try? file.read(at: 0, count: Int(min(file.size, 256))), head.starts(with: [0x23, 0x21]) else {
            return nil
        }
        let line = head.dropFirst(2).prefix { $0 != 0x0a }.drop { $0 == 0x20 || $0 == 0x09 }
        let interpreter = String(decoding: line.prefix { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self)
        return interpreter.hasPrefix("/") ? interpreter : nil
    }
}
