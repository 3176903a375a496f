import Foundation
import TestSupport
import Testing

/// What a library user resolves (issue 30): a package that depends on
/// PropertyList alone, with `traits: []`, resolves this package,
/// swift-collections and swift-system, and nothing of the server's stack;
/// one that uses the format and backup libraries with the Storage trait
/// adds GRDB and swift-crypto only. `scripts/check-adoption` writes such a
/// user's package in a temporary folder and reads its Package.resolved.
@Suite struct PackageAdoptionTests {
    @Test func aUserOfTheFormatLibrariesResolvesNoServerStack() throws {
        let root = BuiltExecutable.packageRoot
        let script = root.appendingPathComponent("scripts/check-adoption")
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path], in: root)
        #expect(result.status == 0, "scripts/check-adoption ended with \(result.status):\n\(result.output)\(result.standardError)")
        #expect(result.output.contains("PropertyList (traits: []): 3 packages"), "\(result.output)")
    }
}
