import Container
import Device
import FileSystem
import Foundation
import MobileBackup
import SystemPackage

/// Issue 14, finding 10: open, extract and restore of a backup whose
/// Manifest.db has `rows` rows (one app domain: `Documents/dK/` folders of
/// empty files), each step timed on its own. Linear steps take seconds for
/// 200,000 rows; a per-row query or scan would take minutes.
///
/// The anchor is GNU tar extracting the same tree (its archive made once,
/// untimed) after the same flush, right after our restore: both create the
/// same folders and files and set their modes and times, so what the disk
/// gives to file creation that minute shows beside our figure. With
/// `--anchor-first` tar goes first, before the open: each step's place
/// in the run changes what the allocator has to skip (the 600,000 files
/// the run removes first are "recently deleted" to ext4 for a while).
/// `backup-benchmark --manifest-rows 200000 [--work DIR] [--keep]`.
struct ManifestScaleBenchmark {
    let rows: Int
    let work: URL
    static let directoryCount = 1_000
    static let bundleID = "com.example.scale"

    /// Keeps the generated backup for the next run (which then only reads it).
    let keep: Bool
    /// Runs the anchor before our steps instead of after them.
    var anchorFirst = false

    func run() throws {
        let root = work.appendingPathComponent("manifest-scale-\(rows)")
        let backup = root.appendingPathComponent("backup")
        for output in ["out", "container", "tar-out"] { _ = try? FileSystemPaths.removeTree(atPath: root.path + "/" + output) }
        if !FileSystemPaths.exists(atPath: backup.path + "/Manifest.db") {
            _ = try? FileSystemPaths.removeTree(atPath: root.path)
            try generate(root: root, backup: backup)
        }
        // The removals above (400,000 files) and the generation leave the
        // kernel metadata to write back; done during a timed step, it made
        // the extract take 11 to 58 s from one run to the next. Flushed here.
        try FileDescriptor.openDirectory(atPath: root.path, followLinks: false).syncFileSystemAndClose()
        let earlyAnchor = anchorFirst ? try tarExtract(root: root) : nil
        let domain = "AppDomain-" + Self.bundleID
        var reader: BackupReader?
        let open = try Self.seconds { reader = try BackupReader(directory: backup) }
        guard let reader else { return }
        var extracted = 0
        try FileDescriptor.openDirectory(atPath: root.path, followLinks: false).syncFileSystemAndClose()
        let extract = try Self.seconds {
            extracted = try reader.extract(domain: domain, to: root.appendingPathComponent("out")).verifiedFiles
        }
        let containerPath = root.appendingPathComponent("container").path
        try FileSystemPaths.makeDirectories(atPath: containerPath)
        var restored = 0
        try FileDescriptor.openDirectory(atPath: root.path, followLinks: false).syncFileSystemAndClose()
        let restore = try Self.seconds {
            restored = try BackupRestorer(reader).restoreApp(bundleID: Self.bundleID, into: DirectoryHandle(openingAt: containerPath), layout: .container(.app)).restoredFiles
        }
        let anchor = anchorFirst ? earlyAnchor : try tarExtract(root: root)
        print("| rows | open | extract | restore | tar -x of the same tree |")
        print("|---:|---:|---:|---:|---:|")
        print(String(format: "| %d (%d records) | %.2f s | %.2f s (%d files) | %.2f s (%d files) | ",
                     rows, reader.records.count, open, extract, extracted, restore, restored)
              + (anchor.map { String(format: "%.2f s |", $0) } ?? "no tar |"))
        if !keep { _ = try? FileSystemPaths.removeTree(atPath: root.path) }
    }

    /// Seconds for `tar -x` of the generated tree into `root/tar-out`, after
    /// a flush; nil when tar or the tree is missing. The archive is made
    /// once, untimed, and kept beside the backup.
    private func tarExtract(root: URL) throws -> Double? {
        guard let executable = ExternalTool.find("tar"),
              FileSystemPaths.exists(atPath: root.appendingPathComponent("tree/Documents").path) else { return nil }
        let tar = ExternalTool(name: "tar", executable: executable, environment: [:])
        let archive = root.appendingPathComponent("tree.tar").path
        if !FileSystemPaths.exists(atPath: archive) {
            try tar.run(["-C", root.appendingPathComponent("tree").path, "-cf", archive, "Documents"])
        }
        let output = root.appendingPathComponent("tar-out").path
        try FileSystemPaths.makeDirectories(atPath: output)
        try FileDescriptor.openDirectory(atPath: root.path, followLinks: false).syncFileSystemAndClose()
        return try Self.seconds { try tar.run(["-C", output, "-xf", archive]) }
    }

    /// A tree of `rows` rows (with `Documents` and its folders) backed up into `backup`.
    private func generate(root: URL, backup: URL) throws {
        let tree = root.appendingPathComponent("tree")
        let fileCount = rows - Self.directoryCount - 1
        print("generating \(fileCount) empty files in \(Self.directoryCount) folders …")
        for index in 0..<Self.directoryCount {
            try FileSystemPaths.makeDirectories(atPath: tree.path + "/Documents/d\(index)")
        }
        for index in 0..<fileCount {
            try FileSystemPaths.writeAtomically(Data(), toPath: tree.path + "/Documents/d\(index % Self.directoryCount)/f\(index)",
                                                options: AtomicWriteOptions(durability: .none))
        }
        let device = BackupDeviceInfo(udid: "00008110-SCALE0000000001E", deviceName: "Scale iPhone", imei: "350000000000000")
        let writer = BackupWriter(directory: backup, device: device)
        let backUp = try Self.seconds {
            _ = try writer.backUp([BackupDomainSource(domain: "AppDomain-" + Self.bundleID, root: tree)])
        }
        print(String(format: "backup of %d rows: %.2f s", rows, backUp))
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

extension FileDescriptor {
    /// Flushes the file system holding this directory, then closes it.
    func syncFileSystemAndClose() throws {
        defer { closeQuietly() }
        try syncFileSystem()
    }
}
