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
        for record in domainRecords {
            guard isSafe(record.relativePath) else {
                report.problems.append(BackupPayloadProblem(domain: domain, relativePath: record.relativePath, fileID: record.fileID,
                                                            kind: .unsafePath, message: "the path leaves the domain"))
                continue
            }
            let path = record.relativePath.isEmpty ? root : root + "/" + record.relativePath
            switch record.kind {
            case .directory:
                try makeDirectories(path)
                Platform.setPermissions(path, record.mode)
                directoryTimes.append((path, record.lastModified))
            case .symbolicLink:
                try makeDirectories((path as NSString).deletingLastPathComponent)
                try Platform.removeFile(path)
                try Platform.makeSymbolicLink(path, target: record.target ?? "")
            case .file:
                try makeDirectories((path as NSString).deletingLastPathComponent)
                let temporary = (path as NSString).deletingLastPathComponent + "/.\((path as NSString).lastPathComponent).sandbox-partial"
                try Platform.removeFile(temporary)
                let output = try Platform.createForWriting(temporary)
                var unchecked = false
                let problem = readPayload(record, digestUnchecked: &unchecked) { piece in
                    try Platform.write(output, piece, path: temporary)
                }
                Platform.close(output)
                if let problem {
                    try Platform.removeFile(temporary)
                    report.problems.append(problem)
                    continue
                }
                try Platform.rename(temporary, path)
                Platform.setPermissions(path, record.mode)
                Platform.setModificationTime(path, seconds: record.lastModified)
                report.verifiedFiles += 1
                report.verifiedBytes += record.size
                progress?(record.size)
                if unchecked { report.uncheckedDigests += 1 }
            }
        }
        // Directory times last, as writing files into them changed them.
        for (path, seconds) in directoryTimes.reversed() { Platform.setModificationTime(path, seconds: seconds) }
        return report
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
