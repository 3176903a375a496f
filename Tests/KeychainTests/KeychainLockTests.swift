import Foundation
import Keychain
import Testing

/// Accessibility classes against the device's lock state.
@Suite struct KeychainLockTests {
    /// One item per migrating class and its ThisDeviceOnly twin, in the app's default group.
    private func addOnePerClass(_ client: KeychainClient) throws {
        let classes: [KeychainAccessibility] = [.whenUnlocked, .afterFirstUnlock, .always,
                                                .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly]
        for accessibility in classes {
            try client.add(.genericPassword, KeychainAttributes(service: accessibility.name, accessibility: accessibility),
                           data: Data(utf8: accessibility.name))
        }
    }

    private func readable(_ client: KeychainClient, _ accessibility: KeychainAccessibility) -> Bool {
        (try? client.item(.password(service: accessibility.name))) != nil
    }

    @Test func aNewStoreIsUnlocked() throws {
        let fixture = try KeychainFixture()
        #expect(try fixture.keychain.deviceState() == .initial)
    }

    @Test func whileLockedOnlyAfterFirstUnlockAndAlwaysItemsAreReadable() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try addOnePerClass(mail)
        try fixture.keychain.lock()
        #expect(!readable(mail, .whenUnlocked))
        #expect(!readable(mail, .whenUnlockedThisDeviceOnly))
        #expect(readable(mail, .afterFirstUnlock))
        #expect(readable(mail, .afterFirstUnlockThisDeviceOnly))
        #expect(readable(mail, .always))
        #expect(readable(mail, .alwaysThisDeviceOnly))
        let error = expectKeychainError(.interactionNotAllowed) { try mail.item(.password(service: "whenUnlocked")) }
        #expect(error?.code.osStatus == -25308)
        #expect(error?.operation == .query)
    }

    @Test func afterRebootOnlyAlwaysItemsAreReadableUntilTheFirstUnlock() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try addOnePerClass(mail)
        try fixture.keychain.reboot()
        #expect(try fixture.keychain.deviceState() ==
                KeychainDeviceState(isLocked: true, hasBeenUnlockedSinceBoot: false, isPasscodeSet: false))
        #expect(!readable(mail, .afterFirstUnlock))
        #expect(!readable(mail, .afterFirstUnlockThisDeviceOnly))
        #expect(readable(mail, .always))

        try fixture.keychain.unlock()
        try fixture.keychain.lock()
        #expect(readable(mail, .afterFirstUnlock))
        #expect(!readable(mail, .whenUnlocked))
        try fixture.keychain.unlock()
        #expect(readable(mail, .whenUnlocked))
    }

    @Test func aQueryOverALockedMatchFailsUntilNarrowedByAccessibility() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try addOnePerClass(mail)
        try fixture.keychain.lock()
        expectKeychainError(.interactionNotAllowed) { try mail.query(KeychainQuery(.genericPassword, limit: .all)) }
        let open = try mail.query(KeychainQuery(.genericPassword, KeychainAttributes(accessibility: .always), limit: .all))
        #expect(open.map(\.attributes.service) == ["always"])
    }

    @Test func addUpdateAndDeleteOfLockedClassesAreRefusedWhileLocked() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try addOnePerClass(mail)
        try fixture.keychain.lock()
        expectKeychainError(.interactionNotAllowed) {
            try mail.add(.genericPassword, KeychainAttributes(service: "new"), data: Data())
        }
        expectKeychainError(.interactionNotAllowed) {
            try mail.update(.password(service: "whenUnlocked"), with: KeychainUpdate(data: Data()))
        }
        expectKeychainError(.interactionNotAllowed) { try mail.delete(.password(service: "whenUnlocked")) }
        // Moving an always item into a locked class is refused too.
        expectKeychainError(.interactionNotAllowed) {
            try mail.update(.password(service: "always"), with: KeychainUpdate(attributes: .init(accessibility: .whenUnlocked)))
        }
        // Background work on afterFirstUnlock items goes on.
        try mail.add(.genericPassword, KeychainAttributes(service: "bg", accessibility: .afterFirstUnlock), data: Data(utf8: "ok"))
        try mail.update(.password(service: "afterFirstUnlock"), with: KeychainUpdate(data: Data(utf8: "bg write")))
        try fixture.keychain.unlock()
        #expect(try mail.delete(.password(service: "whenUnlocked")) == 1)
    }

    @Test func lockStateIsSharedByEveryKeychainOnTheStore() throws {
        let fixture = try KeychainFixture()
        let other = try fixture.reopen()
        try fixture.keychain.client(for: Apps.mail).add(.genericPassword, KeychainAttributes(service: "s"), data: Data())
        try other.lock()
        #expect(try fixture.keychain.deviceState().isLocked)
        expectKeychainError(.interactionNotAllowed) {
            try fixture.keychain.client(for: Apps.mail).item(.password(service: "s"))
        }
    }
}
