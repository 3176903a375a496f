import FileSystem
import Foundation
import SystemPackage

/// A directory that every lookup stays beneath: a held ``DirectoryHandle``
/// on its root (which resolves with `openat2(RESOLVE_BENEATH)` or the
/// checked component walk) plus the letter-case policy. `AppContainer` and
/// `AppBundle` both reach their files through one.
struct ConfinedDirectory: Sendable {
    let root: DirectoryHandle
    /// Whether lookups must also verify the exact spelling of each name,
    /// because the host file system ignores case.
    let verifiesCase: Bool

    init(openingAt url: URL, resolver: PathResolution, caseCheck: CaseCheck) throws(ContainerError) {
        do { root = try DirectoryHandle(openingAt: url.path, resolution: resolver) }
        catch { throw ContainerError(error, path: url.path, "open the directory") }
        switch caseCheck {
        case .always: verifiesCase = true
        case .never: verifiesCase = false
        case .automatic: verifiesCase = Self.isCaseInsensitive(root.descriptor)
        }
    }

    /// How paths beneath the root are resolved.
    var resolver: PathResolution { root.resolution }

    /// Whether the file system under `directory` treats names differing only
    /// in case as the same: looks up an existing entry under a case-swapped name.
    private static func isCaseInsensitive(_ directory: FileDescriptor) -> Bool {
        guard let names = try? directory.entries() else { return false }
        for name in names {
            let swapped = String(name.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })
            guard swapped != name, !names.contains(swapped) else { continue }
            return (try? directory.status(of: swapped)) != nil
        }
        return false
    }

    // MARK: Opening

    /// Opens `path` beneath the root; the caller closes the result.
    func open(_ path: ContainerPath, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
              permissions: UInt32 = 0o644, followFinal: Bool = true, action: String) throws(ContainerError) -> FileDescriptor {
        if verifiesCase { try verifyExactCase(path, allowMissingFinal: options.contains(.create)) }
        do {
            return try root.open(path.normalized, access, options: options, permissions: permissions, followFinal: followFinal)
        } catch {
            throw failure(error, path, action)
        }
    }

    /// ``open(_:_:options:permissions:followFinal:action:)`` for a name that
    /// may well be missing: nil then, with no search for another spelling
    /// (that lists every directory on the path; a download checking for its
    /// part paid it once per file).
    func openIfPresent(_ path: ContainerPath, _ access: FileDescriptor.AccessMode, followFinal: Bool = true,
                       action: String) throws(ContainerError) -> FileDescriptor? {
        if verifiesCase { try verifyExactCase(path, allowMissingFinal: true) }
        do {
            return try root.open(path.normalized, access, followFinal: followFinal)
        } catch {
            if error.isNotFound { return nil }
            throw failure(error, path, action)
        }
    }

    /// Opens the directory that holds `path`'s last component.
    func openParent(_ path: ContainerPath, action: String) throws(ContainerError) -> FileDescriptor {
        if verifiesCase { try verifyExactCase(path, allowMissingFinal: true) }
        do {
            return try root.open(path.parentNormalized, .readOnly, options: .directory)
        } catch {
            throw failure(error, path, action)
        }
    }

    /// Runs `body` with the open parent directory and the final name.
    func withParent<T>(_ path: ContainerPath, action: String,
                       _ body: (FileDescriptor, String) throws(ContainerError) -> T) throws(ContainerError) -> T {
        let parent = try openParent(path, action: action)
        defer { parent.closeQuietly() }
        return try body(parent, path.name)
    }

    /// Turns a file-system failure into a typed error; a miss that is only a
    /// matter of case becomes ``ContainerErrorCode/caseMismatch(suggestion:)``.
    func failure(_ error: FileSystemError, _ path: ContainerPath, _ action: String) -> ContainerError {
        if error.isNotFound, let suggestion = caseSuggestion(for: path) {
            return ContainerError(.caseMismatch(suggestion: suggestion), path: path.text,
                                  "cannot \(action): no such file; names are case-sensitive, did you mean '\(suggestion)'?")
                .caused(by: error)
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

    /// Throws ``ContainerErrorCode/caseMismatch(suggestion:)`` if a
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
        let fd = try open(path, .readOnly, action: "read")
        defer { fd.closeQuietly() }
        do { return try fd.readAll(mappedAbove: threshold) }
        catch { throw ContainerError(error, path: path.text, "read") }
    }

    /// The names in a directory beneath the root.
    func listing(_ path: ContainerPath) throws(FileSystemError) -> [String] {
        let fd = try root.open(path.normalized, .readOnly, options: .directory)
        defer { fd.closeQuietly() }
        return try fd.entries()
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
