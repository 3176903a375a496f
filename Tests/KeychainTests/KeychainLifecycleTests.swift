import Foundation
import Keychain
import Testing

/// App update and uninstall, under both uninstall policies.
@Suite struct KeychainLifecycleTests {
    private func addItems(_ keychain: Keychain) throws {
        try keychain.client(for: Apps.mail).add(.genericPassword, KeychainAttributes(service: "shared"), data: Data())
        try keychain.client(for: Apps.mail).add(
            .genericPassword, KeychainAttributes(service: "own", accessGroup: "TEAM1.com.example.mail"), data: Data())
        try keychain.client(for: Apps.mail).add(
            .genericPassword, KeychainAttributes(service: "app group", accessGroup: "group.com.example"), data: Data())
        try keychain.client(for: Apps.game).add(.genericPassword, KeychainAttributes(service: "game"), data: Data())
    }

    private func services(_ keychain: Keychain) throws -> [String?] {
        try keychain.deviceClient.query(KeychainQuery(.genericPassword, limit: .all)).map(\.attributes.service)
    }

    @Test func anUpdateTouchesNothing() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        let before = try fixture.keychain.deviceClient.query(KeychainQuery(.genericPassword, limit: .all, returning: .all))
        fixture.clock.advance(by: 3600)
        fixture.keychain.appUpdated(Apps.mail)
        let after = try fixture.keychain.deviceClient.query(KeychainQuery(.genericPassword, limit: .all, returning: .all))
        #expect(after == before)
    }

    @Test func retainKeepsEverythingAndAReinstallFindsIt() throws {
        let fixture = try KeychainFixture(policy: .retain)
        try addItems(fixture.keychain)
        #expect(try fixture.keychain.appUninstalled(Apps.mail, remainingApps: [Apps.game]) == 0)
        #expect(try services(fixture.keychain).count == 4)
        #expect(try fixture.keychain.client(for: Apps.mail).query(KeychainQuery(.genericPassword, limit: .all)).count == 3)
    }

    @Test func deleteRemovesTheGroupsNoRemainingAppHas() throws {
        let fixture = try KeychainFixture(policy: .delete)
        try addItems(fixture.keychain)
        // Calendar still shares TEAM1.shared, so only mail's own group and app group go.
        #expect(try fixture.keychain.appUninstalled(Apps.mail, remainingApps: [Apps.calendar, Apps.game]) == 2)
        #expect(try services(fixture.keychain) == ["shared", "game"])
        // When calendar goes too, the shared group goes with it.
        #expect(try fixture.keychain.appUninstalled(Apps.calendar, remainingApps: [Apps.game]) == 1)
        #expect(try services(fixture.keychain) == ["game"])
    }

    @Test func deleteIgnoresTheLockState() throws {
        let fixture = try KeychainFixture(policy: .delete)
        try addItems(fixture.keychain)
        try fixture.keychain.reboot()
        #expect(try fixture.keychain.appUninstalled(Apps.game, remainingApps: [Apps.mail]) == 1)
    }

    @Test func resetEmptiesTheStore() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        #expect(try fixture.keychain.reset() == 4)
        expectKeychainError(.itemNotFound) { try fixture.keychain.deviceClient.query(KeychainQuery(.genericPassword)) }
    }
}
