@testable import Device
import Foundation
import Keychain
import Testing

@Suite struct UninstallTests {
    static let attributes = KeychainAttributes(service: "api", account: "me")

    private func installWithItem(_ fixture: DeviceFixture) throws -> InstalledApp {
        let app = try fixture.install()
        try app.keychainClient(on: fixture.device).add(.genericPassword, Self.attributes, data: Data("secret".utf8))
        return app
    }

    @Test func uninstallRemovesBothContainers() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        try fixture.device.uninstall(app.bundleID)
        #expect(!FileManager.default.fileExists(atPath: app.dataContainerURL.path))
        #expect(!FileManager.default.fileExists(atPath: app.bundleContainer.deletingLastPathComponent().path))
        #expect(try fixture.device.installedBundleIDs().isEmpty)
        let error = try #require(throws: DeviceError.self) { try fixture.device.app(app.bundleID) }
        #expect(error.code == .notInstalled)
    }

    @Test func theRetainPolicyKeepsKeychainItemsForAReinstall() throws {
        let fixture = try DeviceFixture()
        _ = try installWithItem(fixture)
        try fixture.device.uninstall("com.example.notes", keychainPolicy: .retain)
        let again = try fixture.install()
        let item = try again.keychainClient(on: fixture.device)
            .item(KeychainQuery(.genericPassword, Self.attributes, returning: .data))
        #expect(item.data == Data("secret".utf8))
    }

    @Test func theDeletePolicyDeletesTheAppsItems() throws {
        let fixture = try DeviceFixture()
        _ = try installWithItem(fixture)
        try fixture.device.uninstall("com.example.notes", keychainPolicy: .delete)
        let error = try #require(throws: KeychainError.self) {
            try fixture.device.keychain.deviceClient.item(KeychainQuery(.genericPassword, Self.attributes))
        }
        #expect(error.code == .itemNotFound)
    }

    @Test func uninstallingAnUnknownAppIsRefused() throws {
        let fixture = try DeviceFixture()
        let error = try #require(throws: DeviceError.self) { try fixture.device.uninstall("com.example.none") }
        #expect(error.code == .notInstalled)
    }
}
