import Foundation
import GRDB
import PropertyList
import Testing

/// `sandbox cache status|verify|refetch` on a manifest crafted as a hostile
/// app would leave it: every command reports the bad rows and the link and
/// FIFO in place of files, by row and path, and goes on with the others.
@Suite struct CacheCommandTests {
    private func json(_ result: SandboxProcess.Result) throws -> PropertyListValue {
        try PropertyListValue.decode(result.standardOutput, as: .json)
    }

    /// A device with Notes installed, its manifest created by `cache status`,
    /// then damaged behind its back.
    private func craftedHome() throws -> DeviceCommandTests.Home {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "ci"]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", "ci"]).status == 0)
        #expect(try home.run(["cache", "status", "com.example.notes", "--device", "ci"]).status == 0)
        let data = URL(fileURLWithPath: try home.run(["container", "com.example.notes", "data", "--device", "ci"])
            .output.trimmingCharacters(in: .newlines))
        let caches = data.appendingPathComponent("Library/Caches").path
        try Data("good".utf8).write(to: URL(fileURLWithPath: caches + "/good.bin"))
        try FileManager.default.createSymbolicLink(atPath: caches + "/link.bin", withDestinationPath: "good.bin")
        #expect(mkfifo(caches + "/fifo.bin", 0o644) == 0)
        let database = try DatabaseQueue(path: data.appendingPathComponent("Library/Application Support/CacheManifest.sqlite").path)
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO resource (path, url, size, sha256, fetchedAt, lastUsedAt, pinned, inode, modifiedNanoseconds)
                VALUES ('Library/Caches/good.bin', 'http://127.0.0.1:9/good', 4,
                        '770e607624d689265ca6c44884d0807d9b054d23c473c106c72be9de08b7376c', 0, 0, 0, 0, 0),
                       ('Library/Caches/bad.bin', 'http://127.0.0.1:9/bad', 'abc', '', 0, 0, 0, 0, 0),
                       ('Library/Caches/link.bin', 'http://127.0.0.1:9/link', 4, '', 0, 0, 0, 0, 0),
                       ('Library/Caches/fifo.bin', 'http://127.0.0.1:9/fifo', 4, '', 0, 0, 0, 0, 0),
                       ('Library/Caches/inside.bin', 'http://10.0.0.5/admin', 4, '', 0, 0, 0, 0, 0)
                """)
        }
        try database.close()
        return home
    }

    private func reasons(_ status: PropertyListValue) -> [String: String] {
        var found: [String: String] = [:]
        for problem in status["problems"]?.arrayValue ?? [] {
            if let path = problem["path"]?.stringValue { found[path] = problem["reason"]?.stringValue }
        }
        return found
    }

    @Test func statusAndVerifyReportEachBadRowAndGoOn() throws {
        let home = try craftedHome()
        for command in ["status", "verify"] {
            let result = try home.run(["cache", command, "com.example.notes", "--device", "ci", "--json"])
            #expect(result.status == 0, "\(command): \(result.standardError)")
            let status = try json(result)
            let found = reasons(status)
            #expect(found["Library/Caches/bad.bin"] == "malformedRow", "\(command)")
            #expect(found["Library/Caches/link.bin"] == "notAFile", "\(command)")
            #expect(found["Library/Caches/fifo.bin"] == "notAFile", "\(command)")
            #expect(found["Library/Caches/inside.bin"] == "missing", "\(command)")
            let bad = status["problems"]?.arrayValue?.first { $0["path"]?.stringValue == "Library/Caches/bad.bin" }
            #expect(bad?["row"]?.int64Value != nil, "\(command)")
            #expect(bad?["detail"]?.stringValue?.contains("size") == true, "\(command)")
        }
        // verify hashed the good file (its inode was not recorded: changed,
        // then confirmed by its content).
        let verified = try json(try home.run(["cache", "verify", "com.example.notes", "--device", "ci", "--json"]))
        #expect(verified["healthy"]?.int64Value == 1)
        let text = try home.run(["cache", "status", "com.example.notes", "--device", "ci"])
        #expect(text.output.contains("malformedRow: Library/Caches/bad.bin"))
    }

    @Test func refetchRefusesTheBadRowsAndThePrivateAddress() throws {
        let home = try craftedHome()
        let result = try home.run(["cache", "refetch", "com.example.notes", "--device", "ci", "--json"])
        #expect(result.status == 2, "\(result.standardError)")
        let report = try json(result)
        var errors: [String: String] = [:]
        for failure in report["failures"]?.arrayValue ?? [] {
            if let path = failure["path"]?.stringValue { errors[path] = failure["error"]?.stringValue }
        }
        #expect(errors["Library/Caches/bad.bin"]?.contains("row") == true, "\(errors)")
        #expect(errors["Library/Caches/inside.bin"]?.contains("10.0.0.0/8 (private)") == true, "\(errors)")
        #expect(errors["Library/Caches/link.bin"] != nil)
        #expect(errors["Library/Caches/fifo.bin"] != nil)
    }
}
