import FileSystem
import Foundation
import SystemPackage

extension BackupReader {
    /// Writes one domain's files, directories and links under `destination`
    /// (created if missing), with their recorded permissions and
    /// modification times. A file whose payload is damaged is not written;
    /// it is listed in the report's problems. Each file is written to a
    /// temporary name and renamed into place once its payload checked out,
    /// so a damaged file never appears, not even partly.
    ///
    /// `including` picks the rows to write (by relative path; a left-out
    /// directory's rows are the caller's to leave out too); `progress` is
    /// told the bytes of each file written.
    public func extract(domain: String, to destination: URL, including: (String) -> Bool = { _ in true },
                        progress: ((Int64) -> Void)? = nil) throws -> BackupVerificationReport {
        guard records(inDomain: domain).contains(where: { including($0.relativePath) }) else {
            throw MobileBackupError(.notFound, domain: domain, "the backup has no domain \(domain)")
        }
        let handle = try DirectoryHandle.making(destination.standardizedFileURL.path, "create the directory")
        return try extract(domain: domain, into: handle, including: including, progress: progress)
    }

    /// Writes one domain's rows beneath the held directory `destination`
    /// (see ``extract(domain:to:including:progress:)``). Everything is
    /// created with `*at` calls from directories this extraction opened
    /// itself, never through a link: a directory row whose place holds a
    /// link or a file, and a file whose directory cannot be made, are
    /// reported (``BackupPayloadProblem/Kind/unsafePath``) and left out.
    ///
    /// Rows are refused and reported, never written, when their path is
    /// absolute, has an empty, `.` or `..` component, or is empty for a
    /// file or a link; a row at one of `layoutPaths` that is not a
    /// directory is refused too, so a layout directory is never replaced
    /// by a link or a file. Modes are masked: no setuid, setgid or sticky
    /// bit, and the owner can always read and write (and enter directories).
    public func extract(domain: String, into destination: DirectoryHandle, including: (String) -> Bool = { _ in true },
                        layoutPaths: Set<String> = [], progress: ((Int64) -> Void)? = nil) throws -> BackupVerificationReport {
        try extract(domain: domain, into: destination, including: including, layoutPaths: layoutPaths, fresh: false, progress: progress)
    }

    /// ``extract(domain:into:including:layoutPaths:progress:)``; `fresh` says
    /// `destination` is a private directory this process just made (a
    /// restore's staging directory, mode 0700, moved into place only when
    /// complete): no file there needs replacing, so each is created once
    /// (`O_EXCL`, never through a link) instead of through a temporary name
    /// and a rename, and a damaged one is unlinked. That is half the system
    /// calls per file, which is most of a restore of many small files.
    func extract(domain: String, into destination: DirectoryHandle, including: (String) -> Bool,
                 layoutPaths: Set<String>, fresh: Bool, progress: ((Int64) -> Void)?) throws -> BackupVerificationReport {
        let domainRecords = records(inDomain: domain).filter { including($0.relativePath) }
        guard !domainRecords.isEmpty else {
            throw MobileBackupError(.notFound, domain: domain, "the backup has no domain \(domain)")
        }
        var report = BackupVerificationReport(verifiedFiles: 0, verifiedBytes: 0, problems: [], uncheckedDigests: 0)
        let directories = ExtractionDirectories(destination)
        // Paths, not descriptors: a backup of 100,000 folders (or one
        // 2,000 deep) must not hold a descriptor each until the end.
        var directoryTimes: [(String, Int64)] = []
        var files: [(BackupFileRecord, String, String)] = []
        var links: [(BackupFileRecord, String, String)] = []
        // Directories first (sorted, so parents come first), then files in
        // parallel, then links last, so no file is ever written through a
        // link the backup itself planted.
        for record in domainRecords {
            guard Self.isSafe(record.relativePath, kind: record.kind) else {
                report.problems.append(problem(record, .unsafePath, "the path is empty or leaves the domain"))
                continue
            }
            if record.kind != .directory && layoutPaths.contains(record.relativePath) {
                report.problems.append(problem(record, .unsafePath, "a layout directory cannot be replaced by a \(record.kind)"))
                continue
            }
            let (parentPath, name) = DirectoryHandle.split(record.relativePath)
            do throws(FileSystemError) {
                switch record.kind {
                case .directory:
                    let directory = try directories.open(record.relativePath)
                    try directory.setPermissions(Self.directoryMode(record.mode))
                    directoryTimes.append((record.relativePath, record.lastModified))
                case .symbolicLink:
                    _ = try directories.open(parentPath)
                    links.append((record, parentPath, name))
                case .file:
                    _ = try directories.open(parentPath)
                    files.append((record, parentPath, name))
                }
            } catch {
                guard error.isExists || error.isLoop || error.isNotDirectory || error.isEscape else {
                    throw MobileBackupError.io(error, destination.path + "/" + record.relativePath)
                }
                report.problems.append(problem(record, .unsafePath, "something other than a directory is in the way (\(error.reason))"))
            }
        }
        let work = files
        let groups = Self.folderGroups(of: work.map(\.1))
        let outcome = ExtractionOutcome()
        let reportProgress = progress.map(SerializedCallback.init)
        let workers = min(max(1, ProcessInfo.processInfo.activeProcessorCount * 2), max(1, groups.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            // Each worker takes a folder's files at a time (see
            // ``folderGroups(of:)``) and holds that one folder open.
            var held: (path: String, fd: FileDescriptor)?
            defer { held?.fd.closeQuietly() }
            while let group = outcome.next(limit: groups.count) {
                // Tallied here and added once per run: one lock per run,
                // not per file.
                var tally = ExtractionOutcome.Tally()
                defer { outcome.add(tally) }
                for index in groups[group] {
                    let (record, parentPath, name) = work[index]
                    do throws(FileSystemError) {
                        if held?.path != parentPath {
                            held?.fd.closeQuietly()
                            held = nil
                            do throws(FileSystemError) {
                                held = (parentPath, try destination.open(parentPath, .readOnly, options: [.directory, .noFollow]))
                            } catch where error.isLoop || error.isNotDirectory || error.isEscape || error.isNotFound {
                                // Swapped for a link or a file since it was made:
                                // this file is refused, the others go on.
                                outcome.add(problem: problem(record, .unsafePath,
                                                             "something other than a directory is in the way (\(error.reason))"))
                                continue
                            }
                        }
                        guard let parent = held?.fd else { continue }
                        var unchecked = false
                        let failure = fresh ? try createFile(record, in: parent, name, digestUnchecked: &unchecked)
                            : try extractFile(record, into: parent, name, digestUnchecked: &unchecked)
                        if let failure {
                            outcome.add(problem: failure)
                        } else {
                            tally.files += 1
                            tally.bytes += record.size
                            if unchecked { tally.uncheckedDigests += 1 }
                            reportProgress?(record.size)
                        }
                    } catch {
                        outcome.fail(MobileBackupError.io(error, destination.path + "/" + record.relativePath))
                    }
                }
            }
        }
        let tallies = outcome.tallies
        if let error = tallies.error { throw error }
        report.verifiedFiles += tallies.verifiedFiles
        report.verifiedBytes += tallies.verifiedBytes
        report.uncheckedDigests += tallies.uncheckedDigests
        report.problems += tallies.problems.sorted { $0.relativePath < $1.relativePath }
        for (record, parentPath, name) in links {
            try backupIO(destination.path + "/" + record.relativePath) { () throws(FileSystemError) in
                let parent = try directories.open(parentPath)
                if let status = try parent.statusIfPresent(of: name), status.isDirectory {
                    report.problems.append(problem(record, .unsafePath, "a directory is in the link's place"))
                    return
                }
                try parent.removeIfPresent(name)
                try parent.makeSymbolicLink(name, target: record.target ?? "")
            }
        }
        // Directory times last, as writing files into them changed them.
        // Dropped on failure on purpose: a folder's time is the one thing
        // here whose loss loses no data, and a folder swapped away since it
        // was filled was already reported with its files.
        // Each is set from its parent (`utimensat`, never through a link),
        // which the deepest-first order keeps open for its siblings.
        for (path, seconds) in directoryTimes.reversed() {
            let (parentPath, name) = DirectoryHandle.split(path)
            let nanoseconds = seconds * 1_000_000_000
            try? path.isEmpty ? directories.open(path).setModificationTime(nanoseconds: nanoseconds)
                : directories.open(parentPath).setModificationTime(of: name, nanoseconds: nanoseconds)
        }
        withExtendedLifetime(directories) {}
        return report
    }

    /// The files' indices cut into runs that share a folder (`parents` is in
    /// path order, so a folder's files are mostly consecutive), at most
    /// ``folderGroupLimit`` each. Workers take a run at a time: creating a
    /// file locks its folder in the kernel, so workers in different folders
    /// create in parallel where workers in one folder would queue, and a
    /// very large folder is still shared out.
    static func folderGroups(of parents: [String]) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var start = 0
        for index in parents.indices.dropFirst() where parents[index] != parents[start] || index - start >= folderGroupLimit {
            groups.append(start..<index)
            start = index
        }
        if !parents.isEmpty { groups.append(start..<parents.count) }
        return groups
    }

    /// The most files of one folder a worker takes at a time.
    static let folderGroupLimit = 256

    /// Writes one file through a temporary name in `parent`; returns the
    /// problem when its payload is damaged (and then nothing is left behind).
    private func extractFile(_ record: BackupFileRecord, into parent: FileDescriptor, _ name: String,
                             digestUnchecked: inout Bool) throws(FileSystemError) -> BackupPayloadProblem? {
        // The package's one atomic replace: a damaged payload aborts the
        // fill, and the temporary file goes with it.
        var failure: BackupPayloadProblem?
        let options = AtomicWriteOptions(durability: .none, permissions: Self.fileMode(record.mode))
        do {
            try parent.replaceAtomically(name, options: options) { output throws(FileSystemError) in
                failure = try writePayload(record, to: output, digestUnchecked: &digestUnchecked)
                if failure != nil { throw Self.damagedPayload }
                try output.setModificationTime(nanoseconds: record.lastModified * 1_000_000_000)
            }
        } catch {
            if let failure { return failure }
            throw error
        }
        return nil
    }

    /// Writes one file as a new name in a fresh directory (see
    /// ``extract(domain:into:including:layoutPaths:fresh:progress:)``); a
    /// damaged payload's file is removed and its problem returned. A name
    /// already there (a hostile manifest may list a path twice) goes
    /// through the atomic replace instead, as in any other directory.
    private func createFile(_ record: BackupFileRecord, in parent: FileDescriptor, _ name: String,
                            digestUnchecked: inout Bool) throws(FileSystemError) -> BackupPayloadProblem? {
        let output: FileDescriptor
        do {
            output = try parent.open(name, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: 0o600)
        } catch {
            guard error.isExists else { throw error }
            return try extractFile(record, into: parent, name, digestUnchecked: &digestUnchecked)
        }
        var failure: BackupPayloadProblem?
        do throws(FileSystemError) {
            defer { output.closeQuietly() }
            try output.setPermissions(Self.fileMode(record.mode))
            failure = try writePayload(record, to: output, digestUnchecked: &digestUnchecked)
            if failure == nil { try output.setModificationTime(nanoseconds: record.lastModified * 1_000_000_000) }
        } catch {
            try? parent.remove(name)
            throw error
        }
        if failure != nil { try parent.remove(name) }
        return failure
    }

    /// Writes `record`'s payload into `output` at its offsets, so a sparse
    /// payload's holes stay holes; returns the problem of a damaged payload.
    private func writePayload(_ record: BackupFileRecord, to output: FileDescriptor,
                              digestUnchecked: inout Bool) throws(FileSystemError) -> BackupPayloadProblem? {
        var offset: UInt64 = 0
        var endsInHole = false
        var writeError: FileSystemError?
        let failure = readPayload(record, digestUnchecked: &digestUnchecked, hole: { offset += $0; endsInHole = true }) { piece in
            do throws(FileSystemError) { try output.writeFully(piece, at: offset) } catch { writeError = error; throw error }
            offset += UInt64(piece.count)
            endsInHole = false
        }
        if let writeError { throw writeError }
        if failure == nil && endsInHole { try output.truncate(to: offset) }
        return failure
    }

    /// Thrown inside a fill to abandon a file whose payload is damaged.
    private static let damagedPayload = FileSystemError(.badMessage, "extract (damaged payload)", path: "")

    private func problem(_ record: BackupFileRecord, _ kind: BackupPayloadProblem.Kind, _ message: String) -> BackupPayloadProblem {
        BackupPayloadProblem(domain: record.domain, relativePath: record.relativePath, fileID: record.fileID, kind: kind, message: message)
    }

    /// A row's path must stay in its domain: relative, no empty, `.` or `..`
    /// component, no NUL; only a directory row may be empty (the domain's root).
    static func isSafe(_ relativePath: String, kind: BackupFileKind) -> Bool {
        if relativePath.isEmpty { return kind == .directory }
        if relativePath.hasPrefix("/") || relativePath.contains("\0") { return false }
        return !relativePath.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }

    /// A restored file's permissions: the recorded ones without setuid,
    /// setgid or sticky bits, always readable and writable by the owner.
    static func fileMode(_ recorded: UInt32) -> UInt32 { recorded & 0o777 | 0o600 }

    /// A restored directory's permissions: as ``fileMode(_:)``, and the owner may always enter it.
    static func directoryMode(_ recorded: UInt32) -> UInt32 { recorded & 0o777 | 0o700 }
}

/// The directories an extraction made or entered, by relative path, each
/// opened from its parent without following a link. At most ``limit`` stay
/// open: past it, all but the nearest ancestors of the one asked for are
/// closed (a folder is reached from its parent, so those are what the next
/// ones need), and a closed one is opened again when it is asked for.
private final class ExtractionDirectories {
    static let limit = 128

    private let root: DirectoryHandle
    private var opened: [String: FileDescriptor] = [:]
    /// Directories this extraction already made or found: one closed to
    /// stay under ``limit`` is opened again without another `mkdirat`
    /// (which would fail with `EEXIST` and cost a `fstatat` more).
    private var known: Set<String> = []

    init(_ root: DirectoryHandle) { self.root = root }

    deinit { for fd in opened.values { fd.closeQuietly() } }

    /// The directory at `relativePath`, made (with its parents) if missing;
    /// valid until the next call. Anything else in the way (a link, a file)
    /// is `EEXIST` or `ELOOP`.
    func open(_ relativePath: String) throws(FileSystemError) -> FileDescriptor {
        if let fd = opened[relativePath] { return fd }
        if opened.count >= Self.limit { keepNearestAncestors(of: relativePath) }
        let fd: FileDescriptor
        if relativePath.isEmpty {
            fd = try root.open("", .readOnly, options: .directory)
        } else {
            let (parentPath, name) = DirectoryHandle.split(relativePath)
            let parent = try open(parentPath)
            if !known.contains(relativePath) { try parent.makeDirectoryIfMissing(name) }
            fd = try parent.openDirectory(name)
            known.insert(relativePath)
        }
        opened[relativePath] = fd
        return fd
    }

    /// Closes every held directory but the nearest `limit / 2` ancestors of `relativePath`.
    private func keepNearestAncestors(of relativePath: String) {
        var kept: [String: FileDescriptor] = [:]
        var path = relativePath
        while !path.isEmpty, kept.count < Self.limit / 2 {
            path = DirectoryHandle.split(path).parent
            if let fd = opened.removeValue(forKey: path) { kept[path] = fd }
        }
        for fd in opened.values { fd.closeQuietly() }
        opened = kept
    }
}

/// The extraction workers' shared counter and tallies.
private final class ExtractionOutcome: Sendable {
    struct Tallies {
        var position = 0
        var verifiedFiles = 0
        var verifiedBytes: Int64 = 0
        var uncheckedDigests = 0
        var problems: [BackupPayloadProblem] = []
        var error: Error?
    }

    private let state = Locked(Tallies())

    /// The tallies, once the workers are done.
    var tallies: Tallies { state.withLock { $0 } }

    func next(limit: Int) -> Int? {
        state.withLock { state in
            guard state.error == nil, state.position < limit else { return nil }
            state.position += 1
            return state.position - 1
        }
    }

    /// What one worker verified in one run of files.
    struct Tally {
        var files = 0
        var bytes: Int64 = 0
        var uncheckedDigests = 0
    }

    func add(_ tally: Tally) {
        guard tally.files > 0 else { return }
        state.withLock { state in
            state.verifiedFiles += tally.files
            state.verifiedBytes += tally.bytes
            state.uncheckedDigests += tally.uncheckedDigests
        }
    }

    func add(problem: BackupPayloadProblem) {
        state.withLock { $0.problems.append(problem) }
    }

    func fail(_ failure: Error) {
        state.withLock { if $0.error == nil { $0.error = failure } }
    }
}
