import Foundation
import TestSupport
import Testing

/// The container's layout is spelled in one place, Container's
/// `ContainerDirectory` and rules table (issue 30): every other module
/// names a directory through them (`ContainerDirectory.caches.relativePath`),
/// so no second copy of a path can drift from the rules.
@Suite struct LayoutLiteralTests {
    /// A string literal that is a container path: a standard directory,
    /// alone or with more components (`"Library/Caches/x"`), and no prose.
    static let pattern = try? NSRegularExpression(
        pattern: #""(Documents|Library|tmp)(/(Preferences|Caches|Application Support))?(/[^"\s]*)?""#)

    /// Literals that are not paths in an app's container: the device's own
    /// system domain (its root is not a container), `simctl`'s container
    /// names and the audit's labels.
    static let allowed: [String: String] = [
        "Sources/System/Device/Registry/DeviceLayout.swift": "the device's system directories",
        "Sources/System/Device/Model/InstalledApp.swift": "the device's global domain, in its system root",
        "Sources/CLI/SandboxCLI/Defaults/DefaultsOptions.swift": "the device's global domain, in its system root",
        "Sources/System/Device/Model/ContainerKind.swift": "simctl's container names",
        "Sources/Cloud/CloudBackup/Account/CloudAccount.swift": "the device's system root",
        "Sources/Audit/StorageAuditReport/CategoryStyle.swift": "the audit's category labels",
    ]

    @Test func noContainerPathIsSpelledOutsideContainer() throws {
        let pattern = try #require(Self.pattern)
        let root = BuiltExecutable.packageRoot
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 300)
        var found: [String] = []
        for file in files {
            let relative = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative.hasPrefix("Sources/Storage/Container/") || Self.allowed[relative] != nil { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                let range = NSRange(code.startIndex..., in: code)
                if pattern.firstMatch(in: code, range: range) != nil { found.append("\(relative):\(number + 1): \(line)") }
            }
        }
        #expect(found.isEmpty, "container paths spelled outside Container:\n\(found.joined(separator: "\n"))")
    }
}
