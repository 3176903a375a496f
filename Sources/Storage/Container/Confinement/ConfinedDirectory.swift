import Foundation

/// A directory that every lookup stays beneath: the descriptor of its root,
/// held open for the value's life, plus the resolution and letter-case
/// policies. `AppContainer` and `AppBundle` both reach their files through one.
struct ConfinedDirectory: Sendable {
    let root: DescriptorBox
    let resolver: PathResolution
    /// Whether lookups must also verify the exact spelling of each name,
    /// because the host file system ignores case.
    let verifiesCase: Bool

    init(openingAt url: URL, resolver: PathResolution, caseCheck: CaseCheck) throws(ContainerError) {
        let fd: Platform.Descriptor
        do { fd = try Platform.openPath(url.path, flags: Platform.directoryFlags) }
        catch { throw ContainerError(error, path: url.path, "open the directory") }
        root = DescriptorBox(fd)
        self.resolver = resolver
        switch caseCheck {
        case .always: verifiesCase = true
        case .never: verifiesCase = false
        case .automatic: verifiesCase = Self.isCaseInsensitive(fd)
        }
    }

    /// Whether the file system under `fd` treats names differing only in
    /// case as the same: looks up an existing entry under a case-swapped name.
    private static func isCaseInsensitive(_ fd: Platform.Descriptor) -> Bool {
        guard let names = try? Platform.listDirectory(fd) else { return false }
        for name in names {
            let swapped = String(name.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })
            guard swapped != name, !names.contains(swapped) else { continue }
            return (try? Platform.stat(fd, swapped)) != nil
        }
        return false
    }

    // MARK: Opening

    /// Opens `path` beneath the root.
    func open(_ path: ContainerPath, flags: Int32, mode: UInt32 = 0o644, followFinal: Bool = true,
              action: String) throws(ContainerError) -> Platform.Descriptor {
        if verifiesCase { try verifyExactCase(path, allowMissingFinal: flags & Platform.create != 0) }
        do {
            return try Platform.openBeneath(root.fd, path.normalized, flags: flags, mode: mode,
                                            followFinal: followFinal, resolver: resolver)
        } catch {
            throw failure(error, path, action)
        }
    }

    /// Opens the directory that holds `path`'s last component.
    func openParent(_ path: ContainerPath, action: String) throws(ContainerError) -> Platform.Descriptor {
        if verifiesCase { try verifyExactCase(path, allowMissingFinal: true) }
        do {
            return try Platform.openBeneath(root.fd, path.parentNormalized, flags: Platform.directoryFlags,
                                            resolver: resolver)
        } catch {
            throw failure(error, path, action)
        }
    }

    /// Runs `body` with the open parent directory and the final name.
    func withParent<T>(_ path: ContainerPath, action: String,
                       _ body: (Platform.Descriptor, String) throws(ContainerError) -> T) throws(ContainerError) -> T {
        let parent = try openParent(path, action: action)
        defer { Platform.close(parent) }
        return try body(parent, path.name)
    }

    /// Turns a system failure into a typed error; a miss that is only a
    /// matter of case becomes ``ContainerError/Code/caseMismatch(suggestion:)``.
    func failure(_ error: SystemFailure, _ path: ContainerPath, _ action: String) -> ContainerError {
        if Platform.isNotFound(error.errno), let suggestion = caseSuggestion(for: path) {
            return ContainerError(.caseMismatch(suggestion: suggestion), path: path.text,
                                  "cannot \(action): no such file; names are case-sensitive, did you mean '\(suggestion)'?")
        }
        return ContainerError(error, path: path.text, action)
    }

    // MARK: Letter case

    /// The path spelled as it exists on disk, when `path` misses only
    /// because of letter case; nil otherwise.
    func caseSuggestion(for path: ContainerPath) -> String? {
        var resolved: [String] = []
        var changed = false
        for component in path.components {
            let directory = ContainerPath(validComponents: resolved)
            guard let names = try? listing(directory) else { return nil }
            if names.contains(component) {
                resolved.append(component)
                continue
            }
            let folded = component.lowercased()
            let candidates = names.filter { $0.lowercased() == folded }.sorted()
            guard let match = candidates.first else { return nil }
            resolved.append(match)
            changed = true
        }
        return changed ? resolved.joined(separator: "/") : nil
    }

    /// Throws ``ContainerError/Code/caseMismatch(suggestion:)`` if a
    /// component exists only under another spelling. Used where the host
    /// file system would otherwise accept the wrong case.
    func verifyExactCase(_ path: ContainerPath, allowMissingFinal: Bool) throws(ContainerError) {
        var prefix: [String] = []
        let components = path.components
        for (index, component) in components.enumerated() {
            guard let names = try? listing(ContainerPath(validComponents: prefix)) else { return }
            if !names.contains(component) {
                let folded = component.lowercased()
                if names.contains(where: { $0.lowercased() == folded }), let suggestion = caseSuggestion(for: path) {
                    throw ContainerError(.caseMismatch(suggestion: suggestion), path: path.text,
                                         "names are case-sensitive; the item is spelled '\(suggestion)'")
                }
                if index == components.count - 1 && allowMissingFinal { return }
                return  // a genuine miss: the open reports it
            }
            prefix.append(component)
        }
    }

    /// The whole content of a file: copied into memory up to `threshold`
    /// bytes, mapped above it.
    func readFile(_ path: ContainerPath, mappedAbove threshold: Int) throws(ContainerError) -> Data {
        let fd = try open(path, flags: Platform.readOnly, action: "read")
        defer { Platform.close(fd) }
        do throws(SystemFailure) {
            let info = try Platform.stat(fd)
            if info.isDirectory { throw SystemFailure(errno: Platform.isDirectoryErrno) }
            let size = Int(clamping: info.size)
            if size == 0 { return Data() }
            if size > threshold && info.isRegularFile { return try Platform.mapFile(fd, size: size) }
            return try Platform.read(fd, count: size, at: 0)
        } catch {
            throw ContainerError(error, path: path.text, "read")
        }
    }

    /// The names in a directory beneath the root.
    func listing(_ path: ContainerPath) throws(SystemFailure) -> [String] {
        let fd = try Platform.openBeneath(root.fd, path.normalized, flags: Platform.directoryFlags, resolver: resolver)
        defer { Platform.close(fd) }
        return try Platform.listDirectory(fd)
    }
}

/// When lookups verify the exact spelling of each name.
public enum CaseCheck: Sendable, Equatable {
    /// Only if the container's file system is found to ignore case.
    case automatic
    /// Always (costs a directory listing per component; for tests and for
    /// hosts known to be case-insensitive).
    case always
    /// Never: trust the file system.
    case never
}
