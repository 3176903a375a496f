import Container
import Device
import FileSystem
import Foundation
import MobileBackup
import PropertyList
import StorageAudit
import TestSupport
import Testing

/// What the audit says a backup takes and a purge frees is what the backup
/// then takes and the purge then frees, byte for byte, on random
/// containers: both read the one rules table through the one classifier.
@Suite struct AuditAgreementTests {
    /// Folders files go into: every standard directory, one of the app's
    /// own in Library, and nested folders below them.
    static let folders = ["Documents", "Documents/a", "Documents/a/b", "Library", "Library/Offline", "Library/Preferences",
                          "Library/Application Support", "Library/Application Support/db", "Library/Caches",
                          "Library/Caches/img", "Library/Caches/img/2", "tmp", "tmp/x"]

    /// A random container: files of random sizes in random folders, some
    /// items flagged do-not-back-up, and a temporary file an interrupted
    /// write left.
    static func fill(_ container: AppContainer, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for index in 0..<Int.random(in: 20...60, using: &random) {
            let folder = folders.randomElement(using: &random) ?? "Documents"
            try container.createDirectory(folder)
            let path = "\(folder)/f\(index).bin"
            try container.writeAtomically(Data(repeating: UInt8(index), count: Int.random(in: 0...20_000, using: &random)), to: path,
                                          durability: .none)
            if Int.random(in: 0..<8, using: &random) == 0 { try container.setExcludedFromBackup(true, at: path) }
        }
        if Bool.random(using: &random) { try container.setExcludedFromBackup(true, at: "Library/Offline") }
        let leftover = container.root.appendingPathComponent("Documents/.sb-\(seed).tmp")
        try Data(repeating: 9, count: 777).write(to: leftover)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func theAuditsBackupAndPurgeFiguresAreWhatBackupAndPurgeDo(seed: UInt64) throws {
        let home = try AuditCommandTests.Home()
        let bundleID = "com.example.random\(seed)"
        try home.install(bundleID, documents: Int(seed) * 1_000)
        let container = try home.device.app(bundleID).dataContainer()
        try Self.fill(container, seed: seed)

        var auditor = StorageAuditor()
        let audit = try #require(try auditor.audit(device: home.device, bundleID: bundleID).apps.first)

        let backedUp = try Self.backUp(home, domain: BackupRestorer.appDomain(bundleID))
        #expect(backedUp == audit.total.backupBytes, "seed \(seed): the backup took \(backedUp) bytes")

        let purged = try home.device.purge().apps.first { $0.bundleID == bundleID }
        #expect(purged?.bytes == audit.total.purgeableBytes, "seed \(seed): the purge freed \(purged?.bytes ?? 0) bytes")

        // An update keeps every file whose row the table keeps (the same
        // inode, moved, in the new container) and no other.
        try container.writeAtomically(Data("draft".utf8), to: ContainerDirectory.tmp.relativePath + "/draft.txt")
        var before: [String: (inode: UInt64, kept: Bool)] = [:]
        try container.walk { item, _ in
            if !item.entry.status.isDirectory && !item.isLibraryBookkeeping && item.entry.depth > 0 {
                before[item.entry.path] = (item.entry.status.inode, item.rules.keptAcrossUpdate)
            }
            return .descend
        }
        #expect(before.values.contains { $0.kept } && before.values.contains { !$0.kept })
        try Data("#!/bin/sh\n".utf8).write(to: home.temp.url.appendingPathComponent("\(bundleID)/App.app/App"))
        let updated = try home.device.update(bundleAt: home.temp.url.appendingPathComponent("\(bundleID)/App.app"))
        var after: [String: UInt64] = [:]
        try updated.dataContainer().walk { item, _ in
            if !item.entry.status.isDirectory { after[item.entry.path] = item.entry.status.inode }
            return .descend
        }
        for (path, old) in before {
            #expect((after[path] == old.inode) == old.kept, "seed \(seed): \(path) kept: \(old.kept), after the update: \(String(describing: after[path]))")
        }
    }

    /// Folders of a group's shared container: its rows (the top, Library,
    /// Preferences, Caches, tmp) and folders of the apps' own.
    static let groupFolders = ["Shared", "Shared/db", "Library", "Library/Preferences", "Library/Caches", "Library/Caches/thumbs",
                               "Library/Caches/thumbs/2", "tmp", "tmp/upload"]

    /// The same for an app group's shared container, through the group's
    /// own table: the audit's backup and purge figures for the group are
    /// what the device's backup takes of it and its purge frees.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func theAuditsFiguresForAGroupAreWhatBackupAndPurgeDo(seed: UInt64) throws {
        let home = try AuditCommandTests.Home()
        let group = "group.com.example.random\(seed)"
        let entitlements: PropertyListValue = ["com.apple.security.application-groups": .array([.string(group)])]
        for identifier in ["com.example.one\(seed)", "com.example.two\(seed)"] {
            let folder = home.temp.url.appendingPathComponent("\(identifier)/App.app")
            try FileSystemWrite.file(folder.appendingPathComponent("Info.plist"), try AuditFixture.infoPlist(identifier, executable: "App"))
            try FileSystemWrite.file(folder.appendingPathComponent("App"), Data("#!/bin/sh\n".utf8))
            try FileSystemWrite.file(folder.appendingPathComponent("Entitlements.plist"), try entitlements.encoded(as: .xml))
            _ = try home.device.install(bundleAt: folder)
        }
        let shared = try #require(try home.device.app("com.example.one\(seed)").groupContainers[group])
        var random = SeededGenerator(seed: seed)
        for index in 0..<Int.random(in: 20...50, using: &random) {
            let folder = shared.appendingPathComponent(Self.groupFolders.randomElement(using: &random) ?? "Shared")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(repeating: UInt8(index), count: Int.random(in: 0...20_000, using: &random))
                .write(to: folder.appendingPathComponent("g\(index).bin"))
        }

        var auditor = StorageAuditor()
        let audit = try auditor.audit(device: home.device)
        let figures = try #require(audit.groups.first { $0.identifier == group })
        #expect(figures.apps == ["com.example.one\(seed)", "com.example.two\(seed)"])
        #expect(figures.usage.purgeableBytes > 0 && figures.usage.backupBytes > 0)
        #expect(audit.iCloud.groupBackupBytes == figures.usage.backupBytes)

        let backedUp = try Self.backUp(home, domain: BackupRestorer.groupDomain(group))
        #expect(backedUp == figures.usage.backupBytes, "seed \(seed): the backup took \(backedUp) bytes")

        let purged = try home.device.purge().groups.first { $0.bundleID == group }
        #expect(purged?.bytes == figures.usage.purgeableBytes, "seed \(seed): the purge freed \(purged?.bytes ?? 0) bytes")
    }

    /// Backs the device up and returns the bytes of the files its backup
    /// holds in `domain`.
    static func backUp(_ home: AuditCommandTests.Home, domain: String) throws -> UInt64 {
        let backups = home.temp.url.appendingPathComponent("backups")
        let summary = try home.device.backUp(to: backups)
        #expect(summary.skippedFiles.isEmpty, "\(summary.skippedFiles)")
        let reader = try BackupReader(directory: backups.appendingPathComponent(home.device.identity.udid))
        return UInt64(reader.records(inDomain: domain).filter { $0.kind == .file }.reduce(Int64(0)) { $0 + $1.size })
    }
}
