import Foundation

/// The shared OpenStep fixtures, read from `../shared/fixtures/plist/openstep`
/// beside the package root (never copied into the repository).
enum OpenStepFixtures {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // OpenStep
        .deletingLastPathComponent() // PropertyListTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // package root
        .appendingPathComponent("../shared/fixtures/plist/openstep")
        .standardizedFileURL

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }
}
