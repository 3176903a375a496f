import Foundation
import PropertyList
import TestSupport
import Testing

/// `sandbox keychain`, run as the built executable.
@Suite struct KeychainCommandTests {
    /// A scratch directory with a device secret file; the store goes in `store/`.
    private struct Device {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
            try directory.write(Data((0..<32).map { UInt8($0 * 7 % 256) }), to: "secret")
        }

        /// Runs `sandbox keychain verb --store store --device-secret-file secret arguments…`.
        func run(_ verb: String, _ arguments: [String] = [], input: Data = Data()) throws -> SandboxProcess.Result {
            try SandboxProcess.run([verb, "--store", "store", "--device-secret-file", "secret"] + arguments,
                                   input: input, in: directory.url, subcommand: "keychain")
        }
    }

    private func json(_ result: SandboxProcess.Result) throws -> PropertyListValue {
        try PropertyListValue.decode(result.standardOutput, as: .json)
    }

    @Test func addThenFindPrintsTheData() throws {
        let device = try Device()
        let added = try device.run("add", ["--app", "TEAM.com.example.mail", "--service", "imap", "--account", "ann",
                                           "--data", "hunter2"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.output.hasPrefix("generic-password\n  service: imap\n  account: ann\n"))

        let found = try device.run("find", ["--app", "TEAM.com.example.mail", "--service", "imap", "-w"])
        #expect(found.status == 0)
        #expect(found.output == "hunter2")
    }

    @Test func addWithJSONPrintsTheStoredItem() throws {
        let device = try Device()
        let result = try device.run("add", ["--access-group", "G", "--class", "internet-password", "--server", "example.com",
                                            "--protocol", "htps", "--port", "443", "--accessibility", "afterFirstUnlock",
                                            "--data", "pw", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let item = try json(result)["items"]?[0]
        #expect(item?["class"]?.stringValue == "internet-password")
        #expect(item?["server"]?.stringValue == "example.com")
        #expect(item?["port"]?.int64Value == 443)
        #expect(item?["accessGroup"]?.stringValue == "G")
        #expect(item?["accessibility"]?.stringValue == "afterFirstUnlock")
        #expect(item?["data"] == nil)
    }

    @Test func dataComesFromAFileOrStandardInput() throws {
        let device = try Device()
        let bytes = Data([0, 1, 2, 255])
        #expect(try device.run("add", ["--access-group", "G", "--service", "bin", "--data-file", "-"], input: bytes).status == 0)
        let found = try device.run("find", ["--service", "bin", "--show-data", "--json"])
        #expect(try json(found)["items"]?[0]?["data"]?.stringValue == bytes.base64EncodedString())
        #expect(try device.run("find", ["--service", "bin", "-w"]).standardOutput == bytes)
    }

    @Test func aDuplicateAddFails() throws {
        let device = try Device()
        let arguments = ["--access-group", "G", "--service", "s", "--data", "x"]
        #expect(try device.run("add", arguments).status == 0)
        let again = try device.run("add", arguments)
        #expect(again.status == 1)
        #expect(again.errorLines == ["Error: add: an item with the same identity already exists (duplicateItem, OSStatus -25299)"])
    }

    @Test func anAppSeesOnlyItsGroups() throws {
        let device = try Device()
        #expect(try device.run("add", ["--app", "T.mail", "--service", "s", "--data", "mail"]).status == 0)
        #expect(try device.run("add", ["--app", "T.game", "--service", "s", "--data", "game"]).status == 0)
        #expect(try device.run("find", ["--app", "T.game", "--service", "s", "-w"]).output == "game")

        let listed = try json(device.run("list", ["--app", "T.mail", "--json"]))
        #expect(listed["items"]?.arrayValue?.count == 1)
        #expect(listed["items"]?[0]?["accessGroup"]?.stringValue == "T.mail")

        let other = try device.run("find", ["--app", "T.other", "--service", "s"])
        #expect(other.status == 1)
        #expect(other.errorLines.first?.contains("itemNotFound") == true)

        let entitled = try device.run("find", ["--app", "T.other", "--entitlement-group", "T.mail", "--service", "s", "-w"])
        #expect(entitled.output == "mail")
    }

    @Test func listShowsEveryClassWithoutData() throws {
        let device = try Device()
        #expect(try device.run("add", ["--access-group", "G", "--service", "s", "--data", "secret-data"]).status == 0)
        #expect(try device.run("add", ["--access-group", "G", "--class", "key", "--tag", "t", "--data", "key-bytes"]).status == 0)
        let listed = try device.run("list", ["--json"])
        #expect(listed.status == 0)
        let items = try json(listed)["items"]?.arrayValue ?? []
        #expect(items.compactMap { $0["class"]?.stringValue } == ["generic-password", "key"])
        #expect(!listed.output.contains("secret-data") && !listed.output.contains("key-bytes"))

        let empty = try Device().run("list", ["--json"])
        #expect(empty.status == 0)
        #expect(try json(empty)["items"]?.arrayValue?.isEmpty == true)
    }

    @Test func deleteRemovesEveryMatch() throws {
        let device = try Device()
        for account in ["a", "b"] {
            #expect(try device.run("add", ["--access-group", "G", "--service", "s", "--account", account, "--data", "x"]).status == 0)
        }
        let deleted = try device.run("delete", ["--service", "s"])
        #expect(deleted.status == 0)
        #expect(deleted.output == "deleted 2 items\n")
        #expect(try device.run("delete", ["--service", "s"]).status == 1)
    }

    @Test func theStoreHoldsNoPlaintext() throws {
        let device = try Device()
        #expect(try device.run("add", ["--access-group", "G", "--service", "s", "--data", "plaintext-in-the-cli-0123"]).status == 0)
        let store = device.directory.url.appendingPathComponent("store")
        for name in try FileManager.default.contentsOfDirectory(atPath: store.path) {
            let bytes = try Data(contentsOf: store.appendingPathComponent(name))
            #expect(bytes.range(of: Data("plaintext-in-the-cli-0123".utf8)) == nil)
        }
    }

    @Test func aWrongSecretFailsAndAMissingOneIsAUsageError() throws {
        let device = try Device()
        #expect(try device.run("add", ["--access-group", "G", "--service", "s", "--data", "x"]).status == 0)
        try device.directory.write(Data(repeating: 1, count: 32), to: "secret")
        let wrong = try device.run("list")
        #expect(wrong.status == 1)
        #expect(wrong.errorLines.first?.contains("authenticationFailed") == true)

        let missing = try SandboxProcess.run(["list", "--store", "store"], in: device.directory.url, subcommand: "keychain")
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("--device-secret-file"))
    }

    @Test func attributeErrorsAreReported() throws {
        let device = try Device()
        let foreign = try device.run("add", ["--access-group", "G", "--service", "s", "--server", "h", "--data", "x"])
        #expect(foreign.status == 1)
        #expect(foreign.errorLines.first?.contains("noSuchAttribute") == true)
        #expect(try device.run("add", ["--service", "s", "--data", "x"]).status == 1)
        #expect(try device.run("add", ["--access-group", "G", "--service", "s"]).status == 64)
        #expect(try device.run("find", ["--service", "s", "-w", "--json"]).status == 64)
    }
}
