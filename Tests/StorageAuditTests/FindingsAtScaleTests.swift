import FileSystem
import Foundation
import PropertyList
import SystemPackage
import TestSupport
import Testing

/// An app leaves 100,000 files no manifest knows in Caches: the audit
/// gives one finding per folder, saying how many files and naming the
/// first few, and its HTML page stays small.
@Suite struct FindingsAtScaleTests {
    static let folders = ["a", "b", "c", "d"]
    static let filesPerFolder = 25_000

    @Test func oneFindingPerFolderWithACount() throws {
        let home = try AuditCommandTests.Home()
        try home.install("com.example.hoard", documents: 10)
        let app = try home.device.app("com.example.hoard")
        let caches = try app.dataContainer().root.path + "/Library/Caches"
        let directory = try FileDescriptor.openDirectory(atPath: caches)
        for folder in Self.folders {
            try directory.makeDirectory(folder, permissions: 0o700)
            let inner = try directory.openDirectory(folder)
            for index in 0..<Self.filesPerFolder {
                try inner.open(String(format: "%05d.bin", index), .writeOnly, options: [.create], permissions: 0o600).close()
            }
            inner.closeQuietly()
        }
        directory.closeQuietly()

        let started = ContinuousClock.now
        let json = try home.run(["--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let findings = try PropertyListValue.decode(json.standardOutput, as: .json)["apps"]?[0]?["findings"]?.arrayValue ?? []
        let unknown = findings.filter { $0["rule"]?.stringValue == "A2" }
        // The four folders, and the fixture's one file in img.
        #expect(unknown.count == 5)
        #expect(unknown.compactMap { $0["path"]?.stringValue }.filter { $0.hasPrefix("Library/Caches/") }.count == 5)
        let first = try #require(unknown.first { $0["path"]?.stringValue == "Library/Caches/a" })
        #expect(first["count"]?.int64Value == Int64(Self.filesPerFolder))
        #expect(first["examples"]?.arrayValue?.compactMap(\.stringValue)
                == ["Library/Caches/a/00000.bin", "Library/Caches/a/00001.bin", "Library/Caches/a/00002.bin"])
        #expect(first["detail"]?.stringValue?.hasPrefix("25000 files in this folder, such as") == true)

        let text = try home.run([])
        #expect(text.output.split(separator: "\n").filter { $0.hasPrefix("  A2 ") }.count == 5)
        let page = home.temp.url.appendingPathComponent("audit.html").path
        let html = try home.run(["--html", page])
        #expect(html.status == 0, "\(html.standardError)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page)[.size] as? Int)
        #expect(size < 200_000, "the page is \(size) bytes")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(20), "three audits of 100,000 files took \(elapsed)")
    }
}
