import FileSystem
import Foundation
import MobileBackup
import PropertyList
import Testing
import TestSupport

/// `sandbox store …` on Core Data's own stores, run as the built executable.
@Suite struct StoreCommandTests {
    static let stores = SandboxProcess.packageRoot.appendingPathComponent("../shared/fixtures/coredata/stores").standardizedFileURL

    private func json(_ result: SandboxProcess.Result) throws -> PropertyListValue {
        try PropertyListValue.decode(result.standardOutput, as: .json)
    }

    private func fixtureNames() throws -> [String] {
        try FileSystemPaths.entries(atPath: Self.stores.path).sorted()
    }

    /// Every fixture's schema, from the store alone, with the row counts the
    /// fixtures' MANIFEST gives, and nothing created beside the stores.
    @Test func schemaOfEveryFixtureFromItsCachedModel() throws {
        let before = try fixtureNames()
        let directory = try TemporaryDirectory("store-cli")
        for name in before where name.hasSuffix(".sqlite") {
            let result = try SandboxProcess.run(["store", "schema", Self.stores.appendingPathComponent(name).path, "--json"],
                                                in: directory.url, subcommand: nil)
            #expect(result.status == 0, "\(name): \(result.standardError)")
            let schema = try json(result)
            #expect(schema["modelOrigin"]?.stringValue == "modelCache", "\(name)")
            #expect(schema["metadataMatchesModel"]?.boolValue == true, "\(name)")
            #expect((schema["entities"]?.arrayValue?.count ?? 0) > 0, "\(name)")
        }
        #expect(try fixtureNames() == before)
    }

    @Test func schemaCountsRowsOfSubentities() throws {
        let directory = try TemporaryDirectory("store-cli")
        let store = Self.stores.appendingPathComponent("CoreDataPlus__SampleModel_V1.sqlite").path
        let result = try SandboxProcess.run(["store", "schema", store], in: directory.url, subcommand: nil)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains("Car  table ZCAR, Z_ENT 1, 125 rows"))
        #expect(result.output.contains("ExpensiveSportCar : SportCar  table ZCAR, Z_ENT 3, 5 rows"))
        #expect(result.output.contains("cars ->> Car (nullify, inverse owner)"))
    }

    @Test func theWALOnlyStoreReadsInFull() throws {
        let directory = try TemporaryDirectory("store-cli")
        let store = Self.stores.appendingPathComponent("CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite").path
        let schema = try json(try SandboxProcess.run(["store", "schema", store, "--json"], in: directory.url, subcommand: nil))
        let rows = schema["entities"]?.arrayValue?.compactMap { $0["rows"]?.int64Value }
        #expect(rows == [84, 84])
    }

    @Test func garbageAndMissingFilesAreClearErrors() throws {
        let directory = try TemporaryDirectory("store-cli")
        let garbage = try directory.write(Data("SQLite format 3\0 but not really".utf8), to: "bad.sqlite")
        let bad = try SandboxProcess.run(["store", "schema", garbage.path], in: directory.url, subcommand: nil)
        #expect(bad.status == 1)
        #expect(bad.standardError.hasPrefix("Error: "))
        #expect(bad.standardError.contains("bad.sqlite"))
        let missing = try SandboxProcess.run(["store", "schema", directory.path("none.sqlite")], in: directory.url, subcommand: nil)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("none.sqlite"))
    }

    @Test func queryWithAPredicateSortAndLimit() throws {
        let directory = try TemporaryDirectory("store-cli")
        let store = Self.stores.appendingPathComponent("CoreDataPlus__SampleModel_V1.sqlite").path
        let result = try SandboxProcess.run(["store", "query", store, "Person", "--where", #"firstName BEGINSWITH[c] "b""#,
                                             "--sort", "lastName:desc", "--limit", "2", "--json"], in: directory.url, subcommand: nil)
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try #require(try json(result).arrayValue)
        #expect(rows.compactMap { $0["values"]?["lastName"]?.stringValue } == ["Nabokov", "Munger"])
        #expect(rows.first?["id"]?.stringValue == "Person/p4")

        let count = try SandboxProcess.run(["store", "count", store, "Car", "--where", #"maker ==[c] "fiat""#, "--json"],
                                           in: directory.url, subcommand: nil)
        #expect(try json(count)["count"]?.int64Value == 103)
        let own = try SandboxProcess.run(["store", "count", store, "SportCar", "--exclude-subentities"], in: directory.url, subcommand: nil)
        #expect(own.output == "5\n")
    }

    @Test func aMalformedFormatNamesItsColumn() throws {
        let directory = try TemporaryDirectory("store-cli")
        let store = Self.stores.appendingPathComponent("CoreDataPlus__SampleModel_V1.sqlite").path
        let result = try SandboxProcess.run(["store", "query", store, "Car", "--where", "maker == 'a' AND"], in: directory.url, subcommand: nil)
        #expect(result.status == 64)
        #expect(result.standardError.contains("column"))
        let unknown = try SandboxProcess.run(["store", "query", store, "Car", "--where", "colour == 'red'"], in: directory.url, subcommand: nil)
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("colour"))
    }

    /// A Core Data store that went through an iOS backup: written by
    /// MobileBackup, taken out with `sandbox backup extract`, read as it was.
    @Test func aStoreExtractedFromABackupReads() throws {
        let directory = try TemporaryDirectory("store-backup")
        let fixture = try #require(try FileSystemPaths.readFile(atPath: Self.stores.appendingPathComponent("CoreDataPlus__SampleModel_V1.sqlite").path))
        try FileSystemPaths.makeDirectories(atPath: directory.path("app/Library/Application Support"))
        _ = try directory.write(fixture, to: "app/Library/Application Support/Cars.sqlite")
        let device = BackupDeviceInfo(udid: "00008110-00STORE00000001E", deviceName: "Store iPhone")
        let backup = directory.url.appendingPathComponent("backups").appendingPathComponent(device.udid)
        try BackupWriter(directory: backup, device: device, options: BackupOptions(flushesToDisk: false))
            .backUp([BackupDomainSource(domain: "AppDomain-com.example.cars", root: directory.url.appendingPathComponent("app"))])
        let extract = try SandboxProcess.run(["backup", "extract", backup.path, "com.example.cars", "out"], in: directory.url, subcommand: nil,
                                             environment: ["SANDBOX_HOME": directory.path("home")])
        #expect(extract.status == 0, "\(extract.standardError)")
        let extracted = directory.path("out/Library/Application Support/Cars.sqlite")
        let schema = try json(try SandboxProcess.run(["store", "schema", extracted, "--json"], in: directory.url, subcommand: nil))
        #expect(schema["entities"]?.arrayValue?.compactMap { $0["rows"]?.int64Value } == [125, 10, 5, 20])
        let count = try SandboxProcess.run(["store", "count", extracted, "Car", "--where", "owner.firstName BEGINSWITH[c] 'b'"],
                                           in: directory.url, subcommand: nil)
        #expect(count.status == 0, "\(count.standardError)")
        #expect(Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 > 0 } == true)
    }
}
