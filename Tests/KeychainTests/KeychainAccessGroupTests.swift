import Foundation
import Keychain
import Testing

/// Apps see only their own access groups; shared groups are seen by every app that lists them.
@Suite struct KeychainAccessGroupTests {
    @Test func entitlementsFollowIOSOrder() {
        #expect(Apps.mail.accessGroups == ["TEAM1.shared", "TEAM1.com.example.mail", "group.com.example"])
        #expect(Apps.mail.defaultAccessGroup == "TEAM1.shared")
        #expect(Apps.game.defaultAccessGroup == "TEAM2.com.other.game")
        #expect(KeychainEntitlements(accessGroups: ["a", "b", "a"]).accessGroups == ["a", "b"])
    }

    @Test func anAppDoesNotSeeAnotherAppsItems() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let game = fixture.keychain.client(for: Apps.game)
        try mail.add(.genericPassword, KeychainAttributes(service: "s", accessGroup: "TEAM1.com.example.mail"),
                     data: Data(utf8: "private"))
        expectKeychainError(.itemNotFound) { try game.query(.password(service: "s")) }
        expectKeychainError(.itemNotFound) { try game.delete(.password(service: "s")) }
        // The game can add its own item with the same service and account.
        try game.add(.genericPassword, KeychainAttributes(service: "s"), data: Data(utf8: "mine"))
        #expect(try game.item(.password(service: "s")).data == Data(utf8: "mine"))
        #expect(try mail.item(.password(service: "s")).data == Data(utf8: "private"))
    }

    @Test func sharedGroupIsSeenByEveryAppThatHasIt() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let calendar = fixture.keychain.client(for: Apps.calendar)
        // Mail's default group is the shared one.
        try mail.add(.genericPassword, KeychainAttributes(service: "token"), data: Data(utf8: "shared"))
        #expect(try calendar.item(.password(service: "token")).data == Data(utf8: "shared"))
        try calendar.update(.password(service: "token"), with: KeychainUpdate(data: Data(utf8: "changed")))
        #expect(try mail.item(.password(service: "token")).data == Data(utf8: "changed"))
        expectKeychainError(.itemNotFound) { try fixture.keychain.client(for: Apps.game).query(.password(service: "token")) }
    }

    @Test func namingAGroupWithoutTheEntitlementIsMissingEntitlement() throws {
        let fixture = try KeychainFixture()
        let game = fixture.keychain.client(for: Apps.game)
        let error = expectKeychainError(.missingEntitlement) {
            try game.add(.genericPassword, KeychainAttributes(service: "s", accessGroup: "TEAM1.shared"), data: Data())
        }
        #expect(error?.code.osStatus == -34018)
        expectKeychainError(.missingEntitlement) { try game.query(.password(service: "s", group: "TEAM1.shared")) }
        try game.add(.genericPassword, KeychainAttributes(service: "s"), data: Data())
        expectKeychainError(.missingEntitlement) {
            try game.update(.password(service: "s"), with: KeychainUpdate(attributes: .init(accessGroup: "TEAM1.shared")))
        }
    }

    @Test func anAppWithNoGroupsCanDoNothing() throws {
        let fixture = try KeychainFixture()
        let nobody = fixture.keychain.client(for: KeychainEntitlements(accessGroups: []))
        expectKeychainError(.missingEntitlement) { try nobody.add(.genericPassword, KeychainAttributes(), data: Data()) }
        expectKeychainError(.missingEntitlement) { try nobody.query(.password(service: "s")) }
    }

    @Test func aQueryCanNarrowToOneOfItsGroups() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s"), data: Data(utf8: "shared"))
        try mail.add(.genericPassword, KeychainAttributes(service: "s", accessGroup: "group.com.example"), data: Data(utf8: "app group"))
        #expect(try mail.query(.password(service: "s", limit: .all)).count == 2)
        #expect(try mail.item(.password(service: "s", group: "group.com.example")).data == Data(utf8: "app group"))
    }

    @Test func theDeviceClientSeesEveryGroupButMustNameOneToAdd() throws {
        let fixture = try KeychainFixture()
        try fixture.keychain.client(for: Apps.mail).add(.genericPassword, KeychainAttributes(service: "a"), data: Data())
        try fixture.keychain.client(for: Apps.game).add(.genericPassword, KeychainAttributes(service: "b"), data: Data())
        let device = fixture.keychain.deviceClient
        #expect(try device.query(KeychainQuery(.genericPassword, limit: .all)).count == 2)
        expectKeychainError(.invalidParameter) { try device.add(.genericPassword, KeychainAttributes(), data: Data()) }
        try device.add(.genericPassword, KeychainAttributes(service: "c", accessGroup: "TEAM2.com.other.game"), data: Data())
        #expect(try fixture.keychain.client(for: Apps.game).query(KeychainQuery(.genericPassword, limit: .all)).count == 2)
    }
}
