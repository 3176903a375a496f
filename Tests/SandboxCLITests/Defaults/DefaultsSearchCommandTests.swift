import Foundation
import PropertyList
import TestSupport
import Testing

/// `sandbox defaults rename`, `find` and `read-type` end to end.
@Suite struct DefaultsSearchCommandTests {
    private let domain = "com.example.app"

    private func defaults(_ arguments: [String], in directory: TemporaryDirectory) throws -> SandboxProcess.Result {
        try SandboxProcess.run(arguments, input: Data(), in: directory.url, subcommand: "defaults")
    }

    private func write(_ arguments: [String], _ directory: TemporaryDirectory, domain: String? = nil) throws {
        let result = try defaults(["write", "--container", "data", domain ?? self.domain] + arguments, in: directory)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
    }

    @Test func readTypeNamesEachType() throws {
        let directory = try TemporaryDirectory()
        let cases: [([String], String)] = [
            (["S", "-string", "x"], "string"), (["I", "-int", "1"], "integer"), (["F", "-float", "1.5"], "float"),
            (["B", "-bool", "YES"], "boolean"), (["Dt", "-date", "2024-01-31T13:45:00Z"], "date"),
            (["Da", "-data", "00ff"], "data"), (["A", "-array", "a"], "array"), (["D", "-dict", "k", "v"], "dictionary"),
        ]
        for (arguments, type) in cases {
            try write(arguments, directory)
            let result = try defaults(["read-type", "--container", "data", domain, arguments[0]], in: directory)
            #expect(result.output == "Type is \(type)\n", "\(arguments[0])")
        }
        let json = try defaults(["read-type", "--container", "data", "--json", domain, "B"], in: directory)
        #expect(try PropertyListValue(data: json.standardOutput) == ["type": "boolean"])
        let missing = try defaults(["read-type", "--container", "data", domain, "Nope"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("does not exist"))
    }

    @Test func renameMovesTheValueAndRefusesAMissingKey() throws {
        let directory = try TemporaryDirectory()
        try write(["Old", "-array", "a", "b"], directory)
        try write(["Other", "-int", "7"], directory)
        #expect(try defaults(["rename", "--container", "data", domain, "Old", "New"], in: directory).status == 0)
        let file = directory.url.appendingPathComponent("data/Library/Preferences/\(domain).plist")
        #expect(try PropertyListValue(data: Data(contentsOf: file)) == ["Other": 7, "New": ["a", "b"]])
        let missing = try defaults(["rename", "--container", "data", domain, "Old", "Newer"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("Key Old does not exist"))
        #expect(try defaults(["rename", "--container", "data", domain, "New"], in: directory).status == 64)
    }

    @Test func findSearchesKeysAndValuesOfEveryDomain() throws {
        let directory = try TemporaryDirectory()
        try write(["Theme", "-string", "Dark blue"], directory)
        try write(["Size", "-int", "3"], directory)
        try write(["Colors", "-array", "red", "DARK green"], directory, domain: "com.example.other")
        try write(["darkMode", "-bool", "YES"], directory, domain: "com.example.third")
        try write(["Unrelated", "-string", "x"], directory, domain: "com.example.none")
        let json = try defaults(["find", "--container", "data", "--json", "dark"], in: directory)
        #expect(json.status == 0, "\(json.standardError)")
        #expect(try PropertyListValue(data: json.standardOutput) == [
            "com.example.app": ["Theme": "Dark blue"],
            "com.example.other": ["Colors": ["red", "DARK green"]],
            "com.example.third": ["darkMode": true],
        ])
        let text = try defaults(["find", "--container", "data", "dark"], in: directory).output
        #expect(text.contains("Found 1 keys in domain 'com.example.app'"))
        #expect(try defaults(["find", "--container", "data", "nothing-like-this"], in: directory).output
            == "Found no keys matching 'nothing-like-this'.\n")
    }
}
