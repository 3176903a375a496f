import CacheManifest
import Container
import Foundation
import Preferences
import StorageAudit
import Testing

/// Each finding: a fixture container that triggers it and one that does not.
@Suite struct FindingTests {
    static let large = 1_100_000

    @Test func downloadableDataInDocuments() throws {
        let byType = try AuditFixture()
        try byType.write("Documents/episode.mp4", bytes: Self.large)
        try byType.write("Library/Caches/trailer.mp4", bytes: 100)
        let found = AuditFixture.findings(try byType.audit(), .downloadableInDocuments)
        #expect(found.map(\.path) == ["Documents/episode.mp4"])
        #expect(found.first?.section == "docs/STORAGE-RULES.md#a1")
        #expect(found.first?.bytes ?? 0 >= UInt64(Self.large))

        let byManifest = try AuditFixture()
        try byManifest.write("Documents/atlas.bin", bytes: Self.large)
        try byManifest.record(["Documents/atlas.bin"])
        #expect(AuditFixture.findings(try byManifest.audit(), .downloadableInDocuments).map(\.path) == ["Documents/atlas.bin"])

        let clean = try AuditFixture()
        try clean.write("Documents/episode.mp4", bytes: Self.large)  // no cached .mp4, no manifest entry
        try clean.write("Documents/small.png", bytes: 1_000)  // cached type, but small
        try clean.write("Library/Caches/tile.png", bytes: 100)
        #expect(AuditFixture.findings(try clean.audit(), .downloadableInDocuments).isEmpty)
    }

    @Test func cacheFilesNoManifestKnows() throws {
        let fixture = try AuditFixture()
        try fixture.write("Library/Caches/known.png", bytes: 100)
        try fixture.write("Library/Caches/img/orphan.png", bytes: 100)
        try fixture.record(["Library/Caches/known.png"])
        let audit = try fixture.audit()
        #expect(AuditFixture.findings(audit, .unknownCacheFile).map(\.path) == ["Library/Caches/img/orphan.png"])
        #expect(audit.cacheManifest?.entries == 1)

        let clean = try AuditFixture()
        try clean.write("Library/Caches/known.png", bytes: 100)
        try clean.record(["Library/Caches/known.png"])
        #expect(AuditFixture.findings(try clean.audit(), .unknownCacheFile).isEmpty)
    }

    @Test func largeApplicationSupportDataWithoutTheFlag() throws {
        let fixture = try AuditFixture()
        try fixture.write("Library/Application Support/tiles.db", bytes: Self.large)
        #expect(AuditFixture.findings(try fixture.audit(), .largeBackedUpApplicationSupport).map(\.path)
                == ["Library/Application Support/tiles.db"])

        let clean = try AuditFixture()
        try clean.write("Library/Application Support/tiles.db", bytes: Self.large)
        try clean.write("Library/Application Support/Offline/maps.db", bytes: Self.large)
        try clean.write("Library/Application Support/small.db", bytes: 1_000)
        try clean.container.setExcludedFromBackup(true, at: "Library/Application Support/tiles.db")
        try clean.container.setExcludedFromBackup(true, at: "Library/Application Support/Offline")
        #expect(AuditFixture.findings(try clean.audit(), .largeBackedUpApplicationSupport).isEmpty)
    }

    @Test func dataWrittenIntoTheBundle() throws {
        let fixture = try AuditFixture()
        let bundle = try fixture.sealBundle()
        try fixture.writeIntoBundle("downloads.dat", Data(repeating: 7, count: 5_000))
        try fixture.writeIntoBundle("Fixture", Data("#!/bin/sh\nexit 1\n".utf8))
        let found = AuditFixture.findings(try fixture.audit(bundle: bundle), .writtenIntoBundle)
        #expect(found.map(\.path) == ["Fixture.app/Fixture", "Fixture.app/downloads.dat"])

        let clean = try AuditFixture()
        let sealed = try clean.sealBundle()
        let audit = try clean.audit(bundle: sealed)
        #expect(AuditFixture.findings(audit, .writtenIntoBundle).isEmpty)
        #expect(audit.notes.isEmpty)

        // Without a seal the check is skipped, and the audit says so.
        let unsealed = try AuditFixture()
        _ = try unsealed.sealBundle()
        try unsealed.shell("rm -r Fixture.app/_CodeSignature")
        let skipped = try unsealed.audit(bundle: try AppBundle(at: unsealed.container.root.appendingPathComponent("Fixture.app")))
        #expect(skipped.notes.contains { $0.contains("A4") })
    }

    @Test func namesDifferingOnlyByCase() throws {
        let fixture = try AuditFixture()
        try fixture.write("Documents/Data.json", bytes: 10)
        try fixture.write("Documents/data.json", bytes: 10)
        let found = AuditFixture.findings(try fixture.audit(), .namesDifferingByCase)
        #expect(found.map(\.path) == ["Documents/Data.json"])
        #expect(found.first?.detail.contains("Data.json, data.json") == true)

        let clean = try AuditFixture()
        try clean.write("Documents/a/data.json", bytes: 10)
        try clean.write("Documents/b/Data.json", bytes: 10)
        #expect(AuditFixture.findings(try clean.audit(), .namesDifferingByCase).isEmpty)
    }

    @Test func preferencesWrittenDirectly() throws {
        let fixture = try AuditFixture()
        try fixture.container.writeAtomically(Data("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8),
                                              to: "Library/Preferences/com.example.fixture.plist")
        try fixture.container.writeAtomically(Data("bplist00".utf8) + Data(count: 40), to: "Library/Preferences/unlocked.plist")
        let found = AuditFixture.findings(try fixture.audit(), .preferencesWrittenDirectly)
        #expect(found.map(\.path) == ["Library/Preferences/com.example.fixture.plist", "Library/Preferences/unlocked.plist"])

        let clean = try AuditFixture()
        let preferences = try Preferences(container: clean.container, bundleIdentifier: AuditFixture.bundleID)
        preferences.set("dark", forKey: "theme")
        try preferences.synchronize()
        #expect(AuditFixture.findings(try clean.audit(), .preferencesWrittenDirectly).isEmpty)
    }
}
