import Foundation
import TestSupport

/// The keyed archives in `../shared/fixtures/plist/keyed_archive/` beside
/// the package root (never copied into the repository).
enum ArchiveFixtures {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/KeyedArchiveTests/Support/ArchiveFixtures.swift → package root
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    static let directory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/plist/keyed_archive")

    /// Every fixture's file name, sorted.
    static let names: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// The fixtures written by Apple's Foundation (see the corpus's LICENSES.md).
    static let appleWritten: [String] = names.filter {
        $0.hasPrefix("scf_") || $0.hasPrefix("mw_nska_") || $0 == "cpython_TESTDATA_keyed_archive.bplist"
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// A fresh directory laid out like an app container (`Documents`, `Library`, `tmp`).
    static func containerDirectory() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory("keyed-archive")
        for folder in ["Documents", "Library/Caches", "Library/Preferences", "tmp"] {
            try FileManager.default.createDirectory(at: root.file(folder), withIntermediateDirectories: true)
        }
        return root
    }
}
