import FileSystem
import Foundation

/// One path a backup records, found in a source tree or given in memory.
struct ScannedEntry: Sendable {
    var domain: String
    var relativePath: String
    var kind: BackupFileKind
    var fileID: String
    /// What the walk saw of the item, links not followed (nil for in-memory
    /// files and synthesised directories). The payload read checks the
    /// file's device and inode against it.
    var status: FileStatus?
    /// The domain's held root, for tree entries: payloads are opened beneath it.
    var root: DirectoryHandle?
    /// What the walk saw of the directory holding the item; the payload
    /// read checks that it opened that same directory.
    var parentStatus: FileStatus?
    /// The bytes, for in-memory files.
    var contents: Data?
    var target: String?
    var protectionClass: BackupProtectionClass
    /// For in-memory files and synthesised directories.
    var permissions: UInt32 = 0o755
    var modificationSeconds: Int64 = 0

    /// The path of the directory holding the item, relative to the root.
    var parentPath: String { DirectoryHandle.split(relativePath).parent }
    /// The item's last component.
    var name: String { DirectoryHandle.split(relativePath).name }
}

/// What a scan found: the entries to record and the items it left out
/// because they changed under it.
struct ScanResult: Sendable {
    var entries: [ScannedEntry] = []
    var skipped: [BackupSkippedFile] = []
}

/// Walks the sources: every included directory, regular file and symbolic
/// link below each root (sockets and other special files are skipped), the
/// domain's root directory as the `""` row, then the in-memory files.
///
/// A tree is walked from its held root with ``FileDescriptor/walkTree(_:)``:
/// no link is ever followed, and each entry keeps the status the walk saw,
/// which the payload read checks again.
enum SourceScanner {
    static func scan(_ sources: [BackupDomainSource]) throws -> ScanResult {
        var result = ScanResult()
        var seen = Set<String>()
        for source in sources {
            try validate(domain: source.domain)
            var domainEntries: [ScannedEntry] = []
            var directories = Set<String>()
            if let root = try openRoot(source) {
                let rootStatus = try backupIO(root.path) { () throws(FileSystemError) in try root.descriptor.status() }
                domainEntries.append(entry(source, root, "", .directory, rootStatus, parent: nil))
                directories.insert("")
                try walk(source, root, rootStatus, into: &domainEntries, directories: &directories, skipped: &result.skipped)
            } else {
                domainEntries.append(synthesisedDirectory(source, ""))
                directories.insert("")
            }
            for extra in source.extraFiles {
                try validate(relativePath: extra.relativePath, domain: source.domain)
                var parent = ""
                for component in extra.relativePath.split(separator: "/").dropLast() {
                    parent = parent.isEmpty ? String(component) : parent + "/" + component
                    if directories.insert(parent).inserted {
                        domainEntries.append(synthesisedDirectory(source, parent))
                    }
                }
                var item = ScannedEntry(domain: source.domain, relativePath: extra.relativePath, kind: .file,
                                        fileID: BackupFileID.make(domain: source.domain, relativePath: extra.relativePath),
                                        contents: extra.contents, protectionClass: extra.protectionClass)
                item.permissions = extra.permissions
                item.modificationSeconds = Int64(extra.modificationDate.timeIntervalSince1970.rounded(.down))
                domainEntries.append(item)
            }
            for item in domainEntries {
                guard seen.insert(item.fileID).inserted else {
                    throw MobileBackupError(.invalidSource, domain: item.domain, relativePath: item.relativePath,
                                            "the path is given twice")
                }
            }
            result.entries += domainEntries
        }
        return result
    }

    /// The source's held root: the handle it was given, or its path opened now.
    private static func openRoot(_ source: BackupDomainSource) throws -> DirectoryHandle? {
        if let directory = source.directory { return directory }
        guard let url = source.root else { return nil }
        let path = url.standardizedFileURL.path
        do {
            return try DirectoryHandle(openingAt: path)
        } catch {
            throw MobileBackupError(.invalidSource, path: path, domain: source.domain,
                                    "the domain's root is not a directory").caused(by: error)
        }
    }

    private static func walk(_ source: BackupDomainSource, _ root: DirectoryHandle, _ rootStatus: FileStatus,
                             into entries: inout [ScannedEntry], directories: inout Set<String>,
                             skipped: inout [BackupSkippedFile]) throws {
        // What the walk saw of each directory entered, for its children's parentStatus.
        var directoryStatus: [String: FileStatus] = ["": rootStatus]
        let filter = source.makeFilter()
        do throws(FileSystemError) {
            try root.descriptor.walkTree(repairedNames: .visit) { found, parent throws(FileSystemError) -> TreeWalkDecision in
                if found.hasRepairedName {
                    skipped.append(BackupSkippedFile(domain: source.domain, relativePath: found.path, reason: .nameNotUTF8,
                                                     message: "the name is not valid UTF-8 (shown with U+FFFD)"))
                    return .skip
                }
                guard let kind = BackupFileKind(mode: found.status.mode) else { return .skip }
                switch filter(found, parent) {
                case .include: break
                case .exclude: return .skip
                case .skip(let reason, let message):
                    skipped.append(BackupSkippedFile(domain: source.domain, relativePath: found.path, reason: reason,
                                                     message: message))
                    return .skip
                }
                let parentPath = DirectoryHandle.split(found.path).parent
                var item = entry(source, root, found.path, kind, found.status, parent: directoryStatus[parentPath])
                switch kind {
                case .directory:
                    directories.insert(found.path)
                    directoryStatus[found.path] = found.status
                case .symbolicLink:
                    do throws(FileSystemError) { item.target = try parent.readLink(found.name) } catch {
                        // Replaced or removed since the walk looked: not the link it saw.
                        skipped.append(BackupSkippedFile(domain: source.domain, relativePath: found.path,
                                                         reason: .changedSinceScan, message: error.description))
                        return .skip
                    }
                case .file:
                    item.protectionClass = source.protectionClass(found.path)
                }
                entries.append(item)
                return .descend
            }
        } catch {
            throw MobileBackupError.io(error, root.path + (error.path.isEmpty ? "" : "/" + error.path), "cannot walk the domain's tree")
        }
    }

    private static func entry(_ source: BackupDomainSource, _ root: DirectoryHandle, _ relativePath: String, _ kind: BackupFileKind,
                              _ status: FileStatus, parent: FileStatus?) -> ScannedEntry {
        ScannedEntry(domain: source.domain, relativePath: relativePath, kind: kind,
                     fileID: BackupFileID.make(domain: source.domain, relativePath: relativePath),
                     status: status, root: root, parentStatus: parent, protectionClass: .unspecified)
    }

    private static func synthesisedDirectory(_ source: BackupDomainSource, _ relativePath: String) -> ScannedEntry {
        var item = ScannedEntry(domain: source.domain, relativePath: relativePath, kind: .directory,
                                fileID: BackupFileID.make(domain: source.domain, relativePath: relativePath),
                                protectionClass: .unspecified)
        item.permissions = 0o755
        item.modificationSeconds = Int64(Date().timeIntervalSince1970.rounded(.down))
        return item
    }

    static func validate(domain: String) throws {
        guard !domain.isEmpty, !domain.contains("/"), !domain.contains("\0") else {
            throw MobileBackupError(.invalidSource, domain: domain, "a domain name must be non-empty and contain no '/'")
        }
    }

    /// A relative path must stay inside its domain: no leading `/`, no
    /// empty, `.` or `..` components, no NUL.
    static func validate(relativePath: String, domain: String) throws {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        let bad = relativePath.isEmpty || relativePath.contains("\0")
            || components.contains { $0.isEmpty || $0 == "." || $0 == ".." }
        if bad {
            throw MobileBackupError(.invalidSource, domain: domain, relativePath: relativePath,
                                    "the relative path is empty or leaves its domain")
        }
    }
}
