import Foundation
import Keychain
import TestSupport
import Testing

/// Several real processes adding to one store at once.
@Suite struct KeychainMultiProcessTests {
    /// `prefs-stress-writer`, built beside this test bundle.
    private static let writer = BuiltExecutable.locate("prefs-stress-writer")

    @Test func fourProcessesAddingDistinctItemsLoseNone() throws {
        let fixture = try KeychainFixture()
        let executable = try #require(Self.writer, "prefs-stress-writer was not built")
        let secret = fixture.secret.bytes.map { String(format: "%02x", $0) }.joined()
        let perProcess = 150
        let processes = try (0..<4).map { index in
            try ChildProcess.start(executable, [
                "keychain-add", "--store", fixture.directory.path, "--secret", secret,
                "--app", Apps.mail.accessGroups[1], "--prefix", "process \(index)", "--count", "\(perProcess)",
            ])
        }
        let exits = processes.map { $0.waitForExit() }
        #expect(exits.allSatisfy { $0.status == 0 })

        let items = try fixture.keychain.client(for: Apps.mail).query(.init(.genericPassword, limit: .all, returning: .all))
        #expect(items.count == 4 * perProcess)
        for index in 0..<4 {
            let found = items.filter { $0.attributes.service == "process \(index)" }
            #expect(found.count == perProcess, "process \(index)")
            #expect(found.allSatisfy { $0.data == Data("process \(index)-\($0.attributes.account ?? "")".utf8) })
        }
    }
}
