import Foundation

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
        let domainRecords = records(inDomain: domain).filter { including($0.relativePath) }
        guard !domainRecords.isEmpty else {
            throw MobileBackupError(.notFound, domain: domain, "the backup has no domain \(domain)")
        }
        let root = destination.standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var report = BackupVerificationReport(verifiedFiles: 0, verifiedBytes: 0, problems: [], uncheckedDigests: 0)
        var directoryTimes: [(String, Int64)] = []
        var created: Set<String> = [root]
        var files: [(BackupFileRecord, String)] = []
        var links: [(BackupFileRecord, String)] = []
        // Directories first (sorted, so parents come first), then files in
        // parallel, then links last, so no file is ever written through a
        // link the backup itself planted.
        for record in domainRecords {
            guard isSafe(record.relativePath) else {
                report.problems.append(problem(record, .unsafePath, "the path leaves the domain"))
                continue
            }
            let path = record.relativePath.isEmpty ? root : root + "/" + record.relativePath
            switch record.kind {
            case .directory:
                try makeDirectories(path, known: &created)
                Platform.setPermissions(path, record.mode)
                directoryTimes.append((path, record.lastModified))
            case .symbolicLink:
                links.append((record, path))
            case .file:
                try makeDirectories((path as NSString).deletingLastPathComponent, known: &created)
                files.append((record, path))
            }
        }
        let work = files
        let outcome = ExtractionOutcome()
        let box = ProgressBox(progress)
        let workers = min(max(1, ProcessInfo.processInfo.activeProcessorCount * 2), max(1, files.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = outcome.next(limit: work.count) {
                let (record, path) = work[index]
                do {
                    var unchecked = false
                    if let failure = try extractFile(record, to: path, digestUnchecked: &unchecked) {
                        outcome.add(problem: failure)
                    } else {
                        outcome.add(verified: record.size, unchecked: unchecked)
                        box.report(record.size)
                    }
                } catch {
                    outcome.fail(error)
                }
            }
        }
        if let error = outcome.error { throw error }
        report.verifiedFiles += outcome.verifiedFiles
        report.verifiedBytes += outcome.verifiedBytes
        report.uncheckedDigests += outcome.uncheckedDigests
        report.problems += outcome.problems.sorted { $0.relativePath < $1.relativePath }
        for (record, path) in links {
            if let status = try Platform.status(path), status.isDirectory {
                report.problems.append(problem(record, .unsafePath, "a directory is in the link's place"))
                continue
            }
            try Platform.removeFile(path)
            try Platform.makeSymbolicLink(path, target: record.target ?? "")
        }
        // Directory times last, as writing files into them changed them.
        for (path, seconds) in directoryTimes.reversed() { Platform.setModificationTime(path, seconds: seconds) }
        return report
    }

    /// Writes one file through a temporary name; returns the problem when
    /// its payload is damaged (and then nothing is left behind).
    private func extractFile(_ record: BackupFileRecord, to path: String, digestUnchecked: inout Bool) throws -> BackupPayloadProblem? {
        let temporary = (path as NSString).deletingLastPathComponent + "/.\((path as NSString).lastPathComponent).sandbox-partial"
        try Platform.removeFile(temporary)
        let output = try Platform.createForWriting(temporary)
        let failure = readPayload(record, digestUnchecked: &digestUnchecked) { piece in
            try Platform.write(output, piece, path: temporary)
        }
        Platform.close(output)
        if let failure {
            try Platform.removeFile(temporary)
            return failure
        }
        try Platform.rename(temporary, path)
        Platform.setPermissions(path, record.mode)
        Platform.setModificationTime(path, seconds: record.lastModified)
        return nil
    }

    private func problem(_ record: BackupFileRecord, _ kind: BackupPayloadProblem.Kind, _ message: String) -> BackupPayloadProblem {
        BackupPayloadProblem(domain: record.domain, relativePath: record.relativePath, fileID: record.fileID, kind: kind, message: message)
    }

    private func makeDirectories(_ path: String, known: inout Set<String>) throws {
        guard known.insert(path).inserted else { return }
        try makeDirectories(path)
    }

    private func makeDirectories(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw MobileBackupError(.ioFailed, path: path, "cannot create the directory: \(error)")
        }
    }

    private func isSafe(_ relativePath: String) -> Bool {
        if relativePath.isEmpty { return true }
        if relativePath.hasPrefix("/") || relativePath.contains("\0") { return false }
        return !relativePath.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }
}

/// The extraction workers' shared counter and tallies, behind one lock.
private final class ExtractionOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var position = 0
    private(set) var verifiedFiles = 0
    private(set) var verifiedBytes: Int64 = 0
    private(set) var uncheckedDigests = 0
    private(set) var problems: [BackupPayloadProblem] = []
    private(set) var error: Error?

    func next(limit: Int) -> Int? {
        lock.withLock {
            guard error == nil, position < limit else { return nil }
            position += 1
            return position - 1
        }
    }

    func add(verified bytes: Int64, unchecked: Bool) {
        lock.withLock {
            verifiedFiles += 1
            verifiedBytes += bytes
            if unchecked { uncheckedDigests += 1 }
        }
    }

    func add(problem: BackupPayloadProblem) {
        lock.withLock { problems.append(problem) }
    }

    func fail(_ failure: Error) {
        lock.withLock { if error == nil { error = failure } }
    }
}

/// The caller's progress closure, called by one worker at a time.
private final class ProgressBox: @unchecked Sendable {
    private let lock = NSLock()
    private let progress: ((Int64) -> Void)?
    init(_ progress: ((Int64) -> Void)?) { self.progress = progress }
    func report(_ bytes: Int64) {
        guard let progress else { return }
        lock.withLock { progress(bytes) }
    }
}
