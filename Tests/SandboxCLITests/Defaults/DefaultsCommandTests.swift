import Foundation
import PropertyList
import TestSupport
import Testing

/// `sandbox defaults` end to end: the built binary on a container directory.
@Suite struct DefaultsCommandTests {
    private let domain = "com.example.app"

    private func defaults(_ arguments: [String], in directory: TemporaryDirectory, input: Data = Data()) throws -> SandboxProcess.Result {
        try SandboxProcess.run(arguments, input: input, in: directory.url, subcommand: "defaults")
    }

    private func domainFile(_ directory: TemporaryDirectory) -> URL {
        directory.url.appendingPathComponent("data/Library/Preferences/\(domain).plist")
    }

    @Test func writeEachTypeThenReadTheBinaryFile() throws {
        let directory = try TemporaryDirectory()
        let writes: [[String]] = [
            ["S", "-string", "text"], ["I", "-int", "-5"], ["F", "-float", "1.5"], ["B", "-bool", "YES"],
            ["Dt", "-date", "2024-01-31T13:45:00Z"], ["Da", "-data", "dead beef"], ["A", "-array", "a", "-int", "2"],
            ["D", "-dict", "k", "v", "n", "-bool", "no"], ["Rep", "(x, y)"], ["Plain", "hello world"],
        ]
        for write in writes {
            let result = try defaults(["write", "--container", "data", domain] + write, in: directory)
            #expect(result.status == 0, "\(write): \(result.standardError)")
        }
        let bytes = try Data(contentsOf: domainFile(directory))
        #expect(PropertyListFormat.detect(bytes) == .binary)
        let value = try PropertyListValue(data: bytes)
        #expect(value["S"] == "text")
        #expect(value["I"] == .integer(-5))
        #expect(value["F"] == .real(1.5))
        #expect(value["B"] == .bool(true))
        #expect(value["Dt"] == .date(Date(timeIntervalSince1970: 1_706_708_700)))
        #expect(value["Da"] == .data(Data([0xDE, 0xAD, 0xBE, 0xEF])))
        #expect(value["A"] == ["a", .integer(2)])
        #expect(value["D"] == ["k": "v", "n": false])
        #expect(value["Rep"] == ["x", "y"])
        #expect(value["Plain"] == "hello world")
    }

    @Test func arrayAddAndDictAddExtendTheValue() throws {
        let directory = try TemporaryDirectory()
        _ = try defaults(["write", "--container", "data", domain, "A", "-array", "a"], in: directory)
        _ = try defaults(["write", "--container", "data", domain, "A", "-array-add", "b", "c"], in: directory)
        _ = try defaults(["write", "--container", "data", domain, "D", "-dict-add", "k", "-int", "1"], in: directory)
        _ = try defaults(["write", "--container", "data", domain, "D", "-dict-add", "l", "-int", "2"], in: directory)
        let read = try defaults(["read", "--container", "data", "--json", domain], in: directory)
        #expect(read.status == 0)
        let value = try PropertyListValue(data: read.standardOutput)
        #expect(value["A"] == ["a", "b", "c"])
        #expect(value["D"] == ["k": 1, "l": 2])
    }

    @Test func readPrintsAStringBareAndOtherValuesAsPlistText() throws {
        let directory = try TemporaryDirectory()
        _ = try defaults(["write", "--container", "data", domain, "Name", "-string", "Ann"], in: directory)
        _ = try defaults(["write", "--container", "data", domain, "Flag", "-bool", "true"], in: directory)
        #expect(try defaults(["read", "--container", "data", domain, "Name"], in: directory).output == "Ann\n")
        let all = try defaults(["read", "--container", "data", domain], in: directory)
        #expect(try OpenStepPropertyListReader().read(all.standardOutput)["Name"] == "Ann")
    }

    @Test func missingDomainsAndKeysFailWithDefaultsMessages() throws {
        let directory = try TemporaryDirectory()
        let missingDomain = try defaults(["read", "--container", "data", "com.none"], in: directory)
        #expect(missingDomain.status == 1)
        #expect(missingDomain.standardError == "Domain com.none does not exist\n")
        _ = try defaults(["write", "--container", "data", domain, "K", "v"], in: directory)
        let missingKey = try defaults(["read", "--container", "data", domain, "Nope"], in: directory)
        #expect(missingKey.status == 1)
        #expect(missingKey.standardError == "The domain/default pair of (\(domain), Nope) does not exist\n")
        let delete = try defaults(["delete", "--container", "data", domain, "Nope"], in: directory)
        #expect(delete.status == 1)
        #expect(delete.standardError.hasPrefix("Key Nope does not exist in domain \(domain)"))
    }

    @Test func badValuesAreUsageErrors() throws {
        let directory = try TemporaryDirectory()
        for value in [["-int", "x"], ["-bool", "maybe"], ["-data", "xyz"], ["-date", "yesterday"], ["-int"], ["-dict", "k"]] {
            let result = try defaults(["write", "--container", "data", domain, "K"] + value, in: directory)
            #expect(result.status == 64, "\(value)")
        }
        #expect(!FileManager.default.fileExists(atPath: domainFile(directory).path))
    }

    @Test func deleteDomainsExportAndImport() throws {
        let directory = try TemporaryDirectory()
        _ = try defaults(["write", "--container", "data", domain, "A", "-int", "1"], in: directory)
        _ = try defaults(["write", "--container", "data", "com.example.other", "B", "-int", "2"], in: directory)
        _ = try defaults(["write", "--container", "data", "-g", "AppleLocale", "en_US"], in: directory)
        #expect(try defaults(["domains", "--container", "data"], in: directory).output == "com.example.app, com.example.other\n")
        let json = try defaults(["domains", "--container", "data", "--json"], in: directory)
        #expect(try PropertyListValue(data: json.standardOutput) == ["domains": ["com.example.app", "com.example.other"]])

        let exported = try defaults(["export", "--container", "data", domain, "-"], in: directory)
        #expect(PropertyListFormat.detect(exported.standardOutput) == .xml)
        #expect(try defaults(["export", "--container", "data", domain, "out.plist"], in: directory).status == 0)
        #expect(PropertyListFormat.detect(try Data(contentsOf: directory.url.appendingPathComponent("out.plist"))) == .binary)

        #expect(try defaults(["delete", "--container", "data", domain, "A"], in: directory).status == 0)
        #expect(try PropertyListValue(data: Data(contentsOf: domainFile(directory))) == [:])
        let imported = try defaults(["import", "--container", "data", domain, "-"], in: directory,
                                    input: try (["Z": 26] as PropertyListValue).encoded(as: .xml))
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try PropertyListValue(data: Data(contentsOf: domainFile(directory))) == ["Z": 26])
        #expect(try defaults(["read", "--container", "data", "-g", "AppleLocale"], in: directory).output == "en_US\n")
    }

    @Test func aDomainCanBeAPlistPath() throws {
        let directory = try TemporaryDirectory()
        #expect(try defaults(["write", "./loose", "K", "-int", "3"], in: directory).status == 0)
        #expect(try PropertyListValue(data: Data(contentsOf: directory.url.appendingPathComponent("loose.plist"))) == ["K": 3])
        #expect(try defaults(["read", "./loose", "K"], in: directory).output == "3\n")
    }
}
