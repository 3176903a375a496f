import Device
import Foundation
import Keychain
import StorageAudit
import TestSupport
import Testing

/// The audit changes nothing it reads, and counts what it cannot walk.
@Suite struct AuditReadsOnlyTests {
    @Test func anAuditLeavesTheContainerAndItsManifestAsTheyWere() throws {
        let fixture = try AuditFixture()
        try fixture.write("Library/Caches/known.png", bytes: 100)
        try fixture.write("Documents/notes.txt", bytes: 100)
        try fixture.record(["Library/Caches/known.png"])
        let before = try TreeSnapshot.take(fixture.container.root)
        let first = try fixture.audit()
        #expect(first.cacheManifest?.entries == 1)
        #expect(try TreeSnapshot.take(fixture.container.root) == before)
        #expect(try fixture.audit() == first)
    }

    @Test func keychainItemsOfTheAppsGroupsAreCountedLockedOrNot() throws {
        let temp = try TemporaryDirectory("audit-keychain")
        let device = try Device.create(at: temp.url.appendingPathComponent("device"), name: "audit")
        let folder = temp.url.appendingPathComponent("App.app")
        try FileSystemWrite.file(folder.appendingPathComponent("Info.plist"), try AuditFixture.infoPlist("com.example.keys", executable: "App"))
        try FileSystemWrite.file(folder.appendingPathComponent("App"), Data("#!/bin/sh\n".utf8))
        let app = try device.install(bundleAt: folder)
        let client = app.keychainClient(on: device)
        for account in ["a", "b"] {
            try client.add(.genericPassword, KeychainAttributes(service: "svc", account: account), data: Data("secret".utf8))
        }
        var auditor = StorageAuditor()
        #expect(try auditor.audit(device: device).apps.first?.keychainItems == 2)
        try device.keychain.lock()
        var again = StorageAuditor()
        #expect(try again.audit(device: device, bundleID: "com.example.keys").apps.first?.keychainItems == 2)
    }
}
