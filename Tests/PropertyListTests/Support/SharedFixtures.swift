import Foundation

/// Locates `../shared/fixtures/` beside the package root, where CI and
/// developers keep the corpus (it is never copied into the repository).
enum SharedFixtures {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/PropertyListTests/Support/SharedFixtures.swift → package root
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    static let plist = root.appendingPathComponent("plist")

    /// The corpus files of one folder (`bplist`, `xml`, `malformed`, …), sorted.
    static func files(in folder: String) -> [URL] {
        let directory = plist.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Reads a corpus file by its path relative to `fixtures/plist`.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: plist.appendingPathComponent(relativePath))
    }
}
