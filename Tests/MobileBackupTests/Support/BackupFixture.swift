import Foundation
import TestSupport
@testable import MobileBackup

/// A scratch area for one test: an app container tree to back up and a
/// backup root, removed when the fixture goes away.
final class BackupFixture: Sendable {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/MobileBackupTests/Support/BackupFixture.swift → package root
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/fixtures/backup/` beside the package (never copied in).
    static let sharedBackups = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/backup")
    static let fixtureUDID = "0123456789abcdef0123456789abcdef01234567"

    static let bundleID = "com.example.possessions"
    static let appDomain = "AppDomain-com.example.possessions"
    static let groupDomain = "AppDomainGroup-group.com.example.possessions"

    /// The scratch directory, removed with the fixture.
    private let scratch: TemporaryDirectory
    let base: URL
    let container: URL
    let group: URL
    let backupDirectory: URL
    let device = BackupDeviceInfo(udid: "00008110-000A1234ABCD801E", deviceName: "Test iPhone", imei: "350000000000000")

    init() throws {
        scratch = try TemporaryDirectory("backup")
        base = scratch.url
        container = base.appendingPathComponent("container")
        group = base.appendingPathComponent("group")
        backupDirectory = base.appendingPathComponent("backups").appendingPathComponent(device.udid)
        try FileManager.default.createDirectory(at: backupDirectory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try write("Documents/possessions.data", Data("possessions archive".utf8))
        try write("Documents/empty.txt", Data())
        try write("Documents/Photos/large.bin", Self.pseudoRandom(count: 3 * 1024 * 1024 + 17, seed: 7))
        try write("Library/Preferences/com.example.possessions.plist", Data("<plist/>".utf8))
        try write("Library/Application Support/block.bin", Self.pseudoRandom(count: 1 << 20, seed: 3))
        try write("Library/Caches/thumbnail.cache", Data("cache".utf8))
        try write("tmp/upload.tmp", Data("tmp".utf8))
        try FileManager.default.createSymbolicLink(atPath: container.appendingPathComponent("Documents/latest").path,
                                                   withDestinationPath: "possessions.data")
        try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
        try Data("{\"shared\":true}".utf8).write(to: group.appendingPathComponent("shared.json"))
    }

    func write(_ relativePath: String, _ data: Data) throws {
        let url = container.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// The payload file of an app-domain path in the backup `reader` opened.
    func payload(_ relativePath: String, in reader: BackupReader) throws -> URL {
        guard let record = reader.record(domain: Self.appDomain, relativePath: relativePath) else {
            throw MobileBackupError(.notFound, domain: Self.appDomain, relativePath: relativePath, "no such row")
        }
        return backupDirectory.appendingPathComponent(BackupFileID.payloadPath(record.fileID))
    }

    func read(_ relativePath: String) throws -> Data {
        try Data(contentsOf: container.appendingPathComponent(relativePath))
    }

    /// The app's domain without Caches and tmp, the group's domain, and the keychain export.
    func sources(keychain: Data = Data("keychain export".utf8)) -> [BackupDomainSource] {
        [
            BackupDomainSource(domain: Self.appDomain, root: container) { path, _ in
                !(path == "tmp" || path.hasPrefix("tmp/") || path == "Library/Caches" || path.hasPrefix("Library/Caches/"))
            },
            BackupDomainSource(domain: Self.groupDomain, root: group),
            BackupDomainSource(domain: "KeychainDomain", root: nil,
                               extraFiles: [BackupExtraFile(relativePath: "keychain-backup.plist", contents: keychain)]),
        ]
    }

    func writer(password: String? = nil) -> BackupWriter {
        let options = BackupOptions(password: password, keyDerivation: BackupKeyDerivation(doubleProtectionIterations: 1_000, iterations: 1_000),
                                    flushesToDisk: false)
        return BackupWriter(directory: backupDirectory, device: device,
                            applications: [BackupApplication(bundleIdentifier: Self.bundleID, version: "1",
                                                             path: "/private/var/containers/Bundle/Application/AAAA/Possessions.app")],
                            options: options)
    }

    /// Deterministic bytes that do not compress.
    static func pseudoRandom(count: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E3779B97F4A7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }

    /// The paths of a container tree that a backup must hold, with their contents.
    static let expectedAppFiles = [
        "Documents/possessions.data", "Documents/empty.txt", "Documents/Photos/large.bin",
        "Library/Preferences/com.example.possessions.plist", "Library/Application Support/block.bin",
    ]
}
