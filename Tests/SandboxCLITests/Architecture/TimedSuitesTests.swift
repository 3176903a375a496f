import Foundation
import TestSupport
import Testing

/// `scripts/test` runs the suites named in `Tests/timed-suites` on their
/// own, before the rest, by name: a suite renamed or removed would drop out
/// of both phases without a word, so each name must still be a suite here.
@Suite struct TimedSuitesTests {
    @Test func everyTimedSuiteNamesASuiteOfTheTests() throws {
        let root = BuiltExecutable.packageRoot
        let list = try String(contentsOf: root.appendingPathComponent("Tests/timed-suites"), encoding: .utf8)
        let names = list.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(!names.isEmpty)
        var declared = Set<String>()
        let tests = root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for name in names where text.contains("struct \(name) ") || text.contains("struct \(name){") { declared.insert(name) }
        }
        #expect(Set(names).subtracting(declared).isEmpty, "not a suite under Tests: \(Set(names).subtracting(declared).sorted())")
    }
}
