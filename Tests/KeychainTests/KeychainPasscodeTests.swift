import Foundation
import Keychain
import Testing

/// `whenPasscodeSetThisDeviceOnly` items need a passcode and go with it.
@Suite struct KeychainPasscodeTests {
    private let query = KeychainQuery.password(service: "pin")
    private let attributes = KeychainAttributes(service: "pin", accessibility: .whenPasscodeSetThisDeviceOnly)

    @Test func addingWithoutAPasscodeFails() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let error = expectKeychainError(.passcodeNotSet) { try mail.add(.genericPassword, attributes, data: Data()) }
        #expect(error?.operation == .add)
        try mail.add(.genericPassword, KeychainAttributes(service: "pin"), data: Data())
        expectKeychainError(.passcodeNotSet) {
            try mail.update(query, with: KeychainUpdate(attributes: .init(accessibility: .whenPasscodeSetThisDeviceOnly)))
        }
    }

    @Test func withAPasscodeTheItemBehavesLikeWhenUnlocked() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try fixture.keychain.setPasscode()
        try mail.add(.genericPassword, attributes, data: Data(utf8: "1234"))
        #expect(try mail.item(query).data == Data(utf8: "1234"))
        try fixture.keychain.lock()
        expectKeychainError(.interactionNotAllowed) { try mail.item(query) }
    }

    @Test func removingThePasscodeDeletesOnlyThoseItems() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try fixture.keychain.setPasscode()
        try mail.add(.genericPassword, attributes, data: Data(utf8: "1234"))
        try mail.add(.genericPassword, KeychainAttributes(service: "other"), data: Data())
        #expect(try fixture.keychain.removePasscode() == 1)
        #expect(try !fixture.keychain.deviceState().isPasscodeSet)
        // Setting a passcode again does not bring them back.
        try fixture.keychain.setPasscode()
        expectKeychainError(.itemNotFound) { try mail.item(query) }
        #expect(try mail.item(.password(service: "other")).attributes.service == "other")
    }
}
