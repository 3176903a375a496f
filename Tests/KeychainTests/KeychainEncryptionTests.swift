import Foundation
import Keychain
import Testing

/// Data at rest is sealed, and the store is bound to its device secret.
@Suite struct KeychainEncryptionTests {
    @Test func theStoreFilesNeverHoldThePlaintextOrTheSecret() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let secrets = KeychainAccessibility.allCases.map { Data(utf8: "plaintext-secret-\($0.rawValue)-0123456789") }
        try fixture.keychain.setPasscode()
        for (accessibility, secret) in zip(KeychainAccessibility.allCases, secrets) {
            try mail.add(.genericPassword, KeychainAttributes(service: accessibility.name, accessibility: accessibility),
                         data: secret)
        }
        try mail.update(.password(service: "always"), with: KeychainUpdate(data: Data(utf8: "plaintext-updated-0123456789")))

        let bytes = try fixture.storeBytes()
        #expect(bytes.count > 0)
        for secret in secrets + [Data(utf8: "plaintext-updated-0123456789")] {
            #expect(!bytes.containsBytes(secret))
        }
        #expect(!bytes.containsBytes(fixture.secret.bytes))
        // The attributes are in the clear (they are what queries match on).
        #expect(bytes.containsBytes(Data(utf8: "whenUnlocked")))
        // And the data still reads back.
        #expect(try mail.item(.password(service: "always")).data == Data(utf8: "plaintext-updated-0123456789"))
    }

    @Test func anotherDeviceSecretCannotOpenTheStore() throws {
        let fixture = try KeychainFixture()
        try fixture.keychain.client(for: Apps.mail).add(.genericPassword, KeychainAttributes(service: "s"), data: Data())
        let error = expectKeychainError(.authenticationFailed) {
            try Keychain(storeDirectory: fixture.directory, deviceSecret: .random())
        }
        #expect(error?.operation == .open)
    }

    @Test func theSameSecretReopensTheStore() throws {
        let fixture = try KeychainFixture()
        try fixture.keychain.client(for: Apps.mail).add(.genericPassword, KeychainAttributes(service: "s"), data: Data(utf8: "x"))
        let reopened = try Keychain(storeDirectory: fixture.directory, deviceSecret: KeychainDeviceSecret(fixture.secret.bytes))
        #expect(try reopened.client(for: Apps.mail).item(.password(service: "s")).data == Data(utf8: "x"))
    }

    @Test func aShortSecretIsRefused() {
        expectKeychainError(.invalidParameter) { try KeychainDeviceSecret(Data(count: 8)) }
    }
}
