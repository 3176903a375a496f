import Container
import Foundation
import Testing

/// `docs/STORAGE-RULES.md` says what the code does: its table equals
/// `StorageRules.table`, every rule quotes a sentence and names tests, and
/// every test it names exists.
@Suite struct StorageRulesDocumentTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The cells of the table rows between `<!-- begin… -->` and `<!-- end … -->`
    /// markers named `marker`, without the header and separator rows.
    static func rows(_ marker: String) throws -> [[String]] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/STORAGE-RULES.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("<!-- \(marker):") }, "no \(marker) marker")
        let end = try #require(lines[start...].firstIndex { $0 == "<!-- end \(marker) -->" }, "no end of \(marker)")
        return lines[(start + 1)..<end]
            .filter { $0.hasPrefix("|") }
            .dropFirst(2)
            .map { line in
                line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            }
    }

    @Test func theDocumentedTableIsTheCodesTable() throws {
        let rows = try Self.rows("rules-table")
        var documented: [ContainerDirectory: DirectoryRules] = [:]
        for row in rows {
            try #require(row.count == 8, "malformed row \(row)")
            let directory = try #require(ContainerDirectory(rawValue: row[0]), "unknown directory \(row[0])")
            func flag(_ cell: String) throws -> Bool {
                try #require(["yes", "no"].contains(cell), "not yes/no: \(cell)")
                return cell == "yes"
            }
            documented[directory] = DirectoryRules(backedUp: try flag(row[2]), keptAcrossUpdate: try flag(row[3]),
                                                   purgeableWhenDiskLow: try flag(row[4]),
                                                   emptiedByFullRestore: try flag(row[5]), writable: try flag(row[6]),
                                                   emptiedAtBoot: try flag(row[7]))
            if !row[1].hasPrefix("(") && !row[1].contains("<") {
                #expect(row[1] == "`\(directory.relativePath)`", "path of \(directory)")
            }
        }
        #expect(rows.count == ContainerDirectory.allCases.count)
        for directory in ContainerDirectory.allCases {
            #expect(documented[directory] == StorageRules.rules(for: directory), "\(directory)")
        }
    }

    @Test func everyRuleQuotesTheDocumentationAndNamesTestsThatExist() throws {
        let rows = try Self.rows("rules-list")
        #expect(rows.count >= 10)
        let sources = try Self.testSources()
        for row in rows {
            try #require(row.count == 5, "malformed rule \(row)")
            #expect(row[2].hasPrefix("\""), "\(row[0]) quotes no sentence")
            #expect(!row[3].isEmpty, "\(row[0]) names no source")
            let tests = row[4].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            #expect(!tests.isEmpty, "\(row[0]) names no test")
            for test in tests {
                let parts = test.split(separator: ".")
                try #require(parts.count == 2, "\(row[0]): '\(test)' is not Suite.test")
                let exists = sources.contains { $0.contains("struct \(parts[0]) ") && $0.contains("func \(parts[1])(") }
                #expect(exists, "\(row[0]) names \(test), which does not exist")
            }
        }
    }

    /// The text of every Swift file under `Tests/`.
    static func testSources() throws -> [String] {
        let tests = repositoryRoot.appendingPathComponent("Tests")
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        var sources: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "swift" { sources.append(try String(contentsOf: url, encoding: .utf8)) }
        }
        return sources
    }
}
