import FileSystem
import Foundation
import PropertyList
import SystemPackage
import TestSupport
import Testing

/// An app makes a folder 10,000 levels deep in its own container: every
/// command that walks the container (audit, migrate, purge, backup and
/// restore) goes through it without a crash, and with at most 256
/// descriptors open, as a process limited to 256 must.
@Suite struct DeepTreeCommandTests {
    static let depth = 10_000

    /// Runs `sandbox arguments…` with `RLIMIT_NOFILE` at 256 (`ulimit -n`).
    static func runLimited(_ home: DeviceCommandTests.Home, _ arguments: [String]) throws -> SandboxProcess.Result {
        let executable = try #require(SandboxProcess.executable, "the sandbox executable was not built")
        return try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                    ["-c", "ulimit -n 256 && exec \"$0\" \"$@\"", executable.path] + arguments,
                                    in: home.directory.url,
                                    environment: ["SANDBOX_HOME": home.directory.url.appendingPathComponent("home").path])
    }

    /// `d/d/…/d` `depth` levels down in `path`, made with `mkdirat` from the
    /// directory above (a path that long cannot be made by path), with a
    /// file at the bottom.
    static func deepTree(in path: String, depth: Int = depth) throws {
        var current = try FileDescriptor.openDirectory(atPath: path)
        for _ in 0..<depth {
            try current.makeDirectory("d", permissions: 0o700)
            let next = try current.openDirectory("d")
            current.closeQuietly()
            current = next
        }
        let file = try current.open("bottom", .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
        try file.writeFully(Data("deep".utf8))
        file.closeQuietly()
        current.closeQuietly()
    }

    /// A device `dev` with Notes installed and a deep tree in its
    /// Documents and its Caches; the data container's path.
    static func deviceWithDeepTrees(_ home: DeviceCommandTests.Home) throws -> String {
        #expect(try home.run(["device", "create", "dev"]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", "dev"]).status == 0)
        let data = try home.run(["container", "com.example.notes", "data", "--device", "dev"]).output
            .trimmingCharacters(in: .newlines)
        try deepTree(in: data + "/Documents")
        try deepTree(in: data + "/Library/Caches")
        return data
    }

    static func expectClean(_ result: SandboxProcess.Result, _ what: String) {
        #expect(result.status == 0, "\(what) ended with \(result.status): \(result.standardError.prefix(600))")
        #expect(!result.standardError.contains("Too many open files"), "\(what): \(result.standardError.prefix(600))")
    }

    @Test func theAuditInTextJSONAndHTML() throws {
        let home = try DeviceCommandTests.Home()
        _ = try Self.deviceWithDeepTrees(home)
        let text = try Self.runLimited(home, ["audit", "--device", "dev"])
        Self.expectClean(text, "audit")
        #expect(text.output.contains("com.example.notes"))
        let json = try Self.runLimited(home, ["audit", "--device", "dev", "--json"])
        Self.expectClean(json, "audit --json")
        let value = try PropertyListValue.decode(json.standardOutput, as: .json)
        #expect(value["apps"]?[0]?["bundleID"]?.stringValue == "com.example.notes")
        let page = home.directory.url.appendingPathComponent("audit.html").path
        Self.expectClean(try Self.runLimited(home, ["audit", "--device", "dev", "--html", page]), "audit --html")
        #expect(FileManager.default.fileExists(atPath: page))
    }

    @Test func migrateMovesItAndPurgeEmptiesCaches() throws {
        let home = try DeviceCommandTests.Home()
        let data = try Self.deviceWithDeepTrees(home)
        Self.expectClean(try Self.runLimited(home, ["migrate", "com.example.notes", "--to", "support", "--device", "dev"]), "migrate")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/Documents").isEmpty)
        let moved = try FileDescriptor.openDirectory(atPath: data + "/Library/Application Support/d")
        #expect(try moved.measureTree() .directories == Self.depth - 1)
        moved.closeQuietly()

        let purge = try Self.runLimited(home, ["purge", "--device", "dev", "--json"])
        Self.expectClean(purge, "purge")
        #expect(try PropertyListValue.decode(purge.standardOutput, as: .json)["apps"]?[0]?["files"]?.int64Value == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/Library/Caches").isEmpty)
    }

    @Test func aBackupAndItsRestore() throws {
        let home = try DeviceCommandTests.Home()
        _ = try Self.deviceWithDeepTrees(home)
        #expect(try home.run(["device", "create", "other"]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", "other"]).status == 0)
        let created = try Self.runLimited(home, ["backup", "create", "--device", "dev", "--json"])
        Self.expectClean(created, "backup create")
        let path = try #require(try PropertyListValue.decode(created.standardOutput, as: .json)["path"]?.stringValue)
        // The restore neither crashes nor runs out of descriptors; its
        // extraction still fails on the deepest paths, with a typed error
        // that says where (left to the backups' extraction).
        let restore = try Self.runLimited(home, ["backup", "restore", path, "--to-device", "other"])
        #expect(!restore.standardError.contains("Too many open files"))
        #expect(restore.status == 0 || restore.errorLines.count == 1, "\(restore.status) \(restore.standardError.prefix(300))")
        guard restore.status == 0 else { return }
        let target = try home.run(["container", "com.example.notes", "data", "--device", "other"]).output
            .trimmingCharacters(in: .newlines)
        let restored = try FileDescriptor.openDirectory(atPath: target + "/Documents")
        // A backup takes paths of up to 4,095 bytes, as iOS has them: the
        // top 2,000-odd levels.
        let tally = try restored.measureTree()
        #expect(tally.directories > 2_000 && tally.directories < Self.depth, "\(tally)")
        restored.closeQuietly()
    }
}
