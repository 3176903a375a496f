import Foundation

/// One path a backup records, found in a source tree or given in memory.
struct ScannedEntry: Sendable {
    var domain: String
    var relativePath: String
    var kind: BackupFileKind
    var fileID: String
    /// `lstat` of the source path (nil for in-memory files and synthesised directories).
    var status: FileStatus?
    /// The file on disk, for tree entries.
    var sourcePath: String?
    /// The bytes, for in-memory files.
    var contents: Data?
    var target: String?
    var protectionClass: BackupProtectionClass
    /// For in-memory files and synthesised directories.
    var permissions: UInt32 = 0o755
    var modificationSeconds: Int64 = 0
}

/// Walks the sources: every included directory, regular file and symbolic
/// link below each root (sockets and other special files are skipped), the
/// domain's root directory as the `""` row, then the in-memory files.
enum SourceScanner {
    static func scan(_ sources: [BackupDomainSource]) throws -> [ScannedEntry] {
        var entries: [ScannedEntry] = []
        var seen = Set<String>()
        for source in sources {
            try validate(domain: source.domain)
            var domainEntries: [ScannedEntry] = []
            var directories = Set<String>()
            if let root = source.root {
                let rootPath = root.path
                guard let rootStatus = try Platform.status(rootPath), rootStatus.isDirectory else {
                    throw MobileBackupError(.invalidSource, path: rootPath, domain: source.domain,
                                            "the domain's root is not a directory")
                }
                domainEntries.append(entry(source, "", .directory, rootStatus, rootPath))
                directories.insert("")
                try walk(source, directory: rootPath, relative: "", into: &domainEntries, directories: &directories)
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
            entries += domainEntries
        }
        return entries
    }

    private static func walk(_ source: BackupDomainSource, directory: String, relative: String,
                             into entries: inout [ScannedEntry], directories: inout Set<String>) throws {
        for name in try Platform.directoryEntries(directory) {
            let path = directory + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            guard let status = try Platform.status(path), let kind = BackupFileKind(mode: status.mode) else { continue }
            guard source.shouldInclude(relativePath, kind == .directory) else { continue }
            var item = entry(source, relativePath, kind, status, path)
            switch kind {
            case .directory:
                entries.append(item)
                directories.insert(relativePath)
                try walk(source, directory: path, relative: relativePath, into: &entries, directories: &directories)
            case .symbolicLink:
                item.target = try Platform.linkTarget(path)
                entries.append(item)
            case .file:
                item.protectionClass = source.protectionClass(relativePath)
                entries.append(item)
            }
        }
    }

    private static func entry(_ source: BackupDomainSource, _ relativePath: String, _ kind: BackupFileKind,
                              _ status: FileStatus, _ path: String) -> ScannedEntry {
        ScannedEntry(domain: source.domain, relativePath: relativePath, kind: kind,
                     fileID: BackupFileID.make(domain: source.domain, relativePath: relativePath),
                     status: status, sourcePath: path, protectionClass: .unspecified)
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
