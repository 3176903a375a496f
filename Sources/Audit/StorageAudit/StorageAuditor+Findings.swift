import CacheManifest
import Container
import FileSystem

/// The findings against the guidelines, from what the walk gathered
/// (``AppScan``). Each cites an "Audit rules" section of
/// `docs/STORAGE-RULES.md`.
extension StorageAuditor {
    /// A1: large files in Documents that look re-downloadable: the manifest
    /// lists the path, or a download of the same name and size, or the app
    /// caches files of the same type.
    func downloadableDocuments(_ scan: AppScan, manifest: ManifestIndex?) -> [StorageFinding] {
        // Downloads of the same name and size, looked for only among the
        // large documents' names and sizes (few), in one pass over the manifest.
        var wanted = Set(scan.largeDocuments.map { NameAndSize(path: $0.path, size: Int64($0.status.size)) })
        var recordedDownloads: Set<NameAndSize> = []
        if !wanted.isEmpty, let manifest {
            manifest.forEach { directory, name, size in
                let key = name.isEmpty ? NameAndSize(path: directory.map { $0 + "/" } ?? "", size: size)
                                       : NameAndSize(name: name[...], size: size)
                if wanted.remove(key) != nil { recordedDownloads.insert(key) }
            }
        }
        return scan.largeDocuments.compactMap { file in
            let reason: String
            if manifest?.contains(file.path) == true {
                reason = "the cache manifest lists it as downloaded"
            } else if recordedDownloads.contains(NameAndSize(path: file.path, size: Int64(file.status.size))) {
                reason = "the cache manifest lists a download of the same name and size"
            } else if let ext = AppScan.pathExtension(file.path), scan.cacheExtensions.contains(ext) {
                reason = "the app also caches .\(ext) files, which it downloads"
            } else {
                return nil
            }
            return StorageFinding(.downloadableInDocuments, path: file.path, bytes: file.status.allocatedBytes,
                                  detail: "\(file.status.size) bytes in Documents, which is backed up, and \(reason)")
        }
    }

    /// A2: files in Caches that no manifest knows (the walk kept only those).
    func unknownCacheFiles(_ scan: AppScan, hasManifest: Bool) -> [StorageFinding] {
        let why = hasManifest ? "its cache manifest has no entry for it" : "the app has no cache manifest"
        return scan.unknownCacheFiles.map { file in
            StorageFinding(.unknownCacheFile, path: file.path, bytes: file.bytes,
                           detail: "\(why), so nothing can fetch it again after a purge")
        }
    }

    /// A3: large Application Support files a backup takes (no
    /// do-not-back-up flag on them or their folders). The cache manifest is
    /// backed up on purpose and left out.
    func largeBackedUpSupport(_ scan: AppScan) -> [StorageFinding] {
        scan.largeBackedUpSupport.filter { AppScan.databasePath(of: $0.path) != CacheManifest.relativePath }.map { file in
            StorageFinding(.largeBackedUpApplicationSupport, path: file.path, bytes: file.status.allocatedBytes,
                           detail: "\(file.status.size) bytes in Application Support without the do-not-back-up flag")
        }
    }

    /// A6: preferences files the Preferences API did not write: it writes
    /// only binary property lists, under the `.<name>.lock` file beside them.
    func preferencesWrittenDirectly(_ scan: AppScan) -> [StorageFinding] {
        scan.preferenceFiles.compactMap { file in
            let detail: String
            if !file.isBinary {
                detail = "not a binary property list, the only format the Preferences API writes"
            } else if !scan.preferenceNames.contains(LockFile.lockName(for: file.name)) {
                detail = "no \(LockFile.lockName(for: file.name)) beside it: the Preferences API never locked it to write it"
            } else {
                return nil
            }
            return StorageFinding(.preferencesWrittenDirectly, path: AppScan.preferencesDirectory + "/" + file.name,
                                  bytes: file.bytes, detail: detail)
        }
    }

    /// A5: names in one directory that differ only by letter case.
    func caseCollisions(_ scan: AppScan) -> [StorageFinding] {
        scan.cases.collisions.map { collision in
            let first = collision.names.first ?? ""
            return StorageFinding(.namesDifferingByCase, path: collision.directory.isEmpty ? first : collision.directory + "/" + first,
                                  bytes: collision.bytes,
                                  detail: "\(collision.names.joined(separator: ", ")) differ only by letter case")
        }
    }

    /// A4: files added to or changed in the bundle since it was sealed at
    /// install; an unsealed bundle cannot be checked and gets a note.
    func writtenIntoBundle(_ bundle: AppBundle, scan: AppScan, notes: inout [String]) throws -> [StorageFinding] {
        let report: BundleSealReport?
        do { report = try bundle.sealReport() } catch {
            notes.append("The bundle's seal could not be read (\(error)): A4 (data written into the bundle) was skipped.")
            return []
        }
        guard let report else {
            notes.append("The bundle has no seal (\(AppBundle.sealPath)): A4 (data written into the bundle) was skipped.")
            return []
        }
        let name = bundle.url.lastPathComponent
        let changed = report.added.map { ($0, "added after install") } + report.modified.map { ($0, "changed after install") }
        return changed.map { path, what in
            StorageFinding(.writtenIntoBundle, path: name + "/" + path, bytes: scan.bundleFiles[path] ?? 0,
                           detail: "\(what): the bundle no longer matches its seal")
        }
    }
}

/// Findings at scale: an app that leaves 100,000 unknown files in Caches
/// gets one finding per folder, saying how many and showing the first few,
/// and at most ``FindingGroups/foldersPerRule`` folders per rule; the
/// report, text or HTML, stays a page.
enum FindingGroups {
    /// More findings of one rule than this in one folder become one.
    static let itemsPerFolder = 3
    /// How many of a folder's items its finding names.
    static let examples = 3
    /// Folders listed per rule; the rest become one last finding.
    static let foldersPerRule = 50

    /// `findings`, each rule's grouped by folder and capped.
    static func grouped(_ findings: [StorageFinding]) -> [StorageFinding] {
        var byRule: [AuditRule: [StorageFinding]] = [:]
        for finding in findings { byRule[finding.rule, default: []].append(finding) }
        return AuditRule.allCases.flatMap { rule -> [StorageFinding] in
            guard let ruleFindings = byRule[rule] else { return [] }
            return capped(byFolder(ruleFindings))
        }
    }

    /// One finding per folder that holds more than ``itemsPerFolder``.
    private static func byFolder(_ findings: [StorageFinding]) -> [StorageFinding] {
        var folders: [String: [StorageFinding]] = [:]
        var order: [String] = []
        for finding in findings {
            let folder = Self.folder(of: finding.path)
            if folders[folder] == nil { order.append(folder) }
            folders[folder, default: []].append(finding)
        }
        return order.sorted().flatMap { folder -> [StorageFinding] in
            let items = folders[folder] ?? []
            guard items.count > itemsPerFolder else { return items }
            return [merged(items.sorted { $0.path < $1.path }, at: folder, what: "files in this folder")]
        }
    }

    /// The largest ``foldersPerRule`` findings, and one for the rest.
    private static func capped(_ findings: [StorageFinding]) -> [StorageFinding] {
        guard findings.count > foldersPerRule else { return findings }
        let bySize = findings.sorted { ($1.bytes, $0.path) < ($0.bytes, $1.path) }
        let kept = Array(bySize.prefix(foldersPerRule - 1))
        let rest = bySize.dropFirst(foldersPerRule - 1).sorted { $0.path < $1.path }
        let folder = rest.dropFirst().reduce(Self.folder(of: rest.first?.path ?? "")) { common, finding in
            Self.commonFolder(common, finding.path)
        }
        return kept + [merged(Array(rest), at: folder, what: "more in \(rest.count) places")]
    }

    /// One finding for `items` (in path order) at `folder`.
    private static func merged(_ items: [StorageFinding], at folder: String, what: String) -> StorageFinding {
        let count = items.reduce(0) { $0 + ($1.count ?? 1) }
        let examples = Array(items.flatMap { $0.examples ?? [$0.path] }.prefix(examples))
        let first = items.first
        var finding = StorageFinding(first?.rule ?? .unknownCacheFile, path: folder,
                                     bytes: items.reduce(0) { $0 + $1.bytes },
                                     detail: "\(count) \(what), such as \(examples.joined(separator: ", ")); "
                                        + "the first: \(first?.detail ?? "")")
        finding.count = count
        finding.examples = examples
        return finding
    }

    /// The folder that holds `path` ("" for the container root).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The deepest folder that holds both `folder` and `path`.
    private static func commonFolder(_ folder: String, _ path: String) -> String {
        let left = folder.split(separator: "/", omittingEmptySubsequences: false)
        let right = Self.folder(of: path).split(separator: "/", omittingEmptySubsequences: false)
        return zip(left, right).prefix { $0 == $1 }.map { String($0.0) }.joined(separator: "/")
    }
}

/// A file's name and size, to match a copy of a download.
private struct NameAndSize: Hashable {
    var name: Substring
    var size: Int64

    init(path: String, size: Int64) {
        name = path.split(separator: "/").last ?? Substring(path)
        self.size = size
    }

    init(name: Substring, size: Int64) {
        self.name = name
        self.size = size
    }
}

