import Foundation
import Keychain
import Testing
@testable import SandboxCLI

/// The `sandbox keychain` options, checked in-process.
@Suite struct KeychainCommandParsingTests {
    @Test func theSecretComesFromTheEnvironmentWithoutAFile() throws {
        let variable = KeychainStoreOptions.secretVariable
        let secret = try KeychainStoreOptions.deviceSecret(file: nil, environment: [variable: "0123456789abcdef"])
        #expect(secret.bytes == Data("0123456789abcdef".utf8))
        #expect(throws: KeychainError.self) {
            try KeychainStoreOptions.deviceSecret(file: nil, environment: [variable: "short"])
        }
        #expect(throws: (any Error).self) { try KeychainStoreOptions.deviceSecret(file: nil, environment: [:]) }
    }

    @Test func classesAcceptNamesAndIOSCodes() {
        #expect(KeychainClassName(argument: "generic-password")?.itemClass == .genericPassword)
        #expect(KeychainClassName(argument: "inet")?.itemClass == .internetPassword)
        #expect(KeychainClassName(argument: "key")?.itemClass == .key)
        #expect(KeychainClassName(argument: "certificate") == nil)
    }

    @Test func accessibilityAcceptsNamesAndIOSCodes() {
        #expect(KeychainAccessibilityName(argument: "afterFirstUnlockThisDeviceOnly")?.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(KeychainAccessibilityName(argument: "akpu")?.accessibility == .whenPasscodeSetThisDeviceOnly)
        #expect(KeychainAccessibilityName(argument: "sometimes") == nil)
    }

    @Test func itemOptionsBecomeAttributes() throws {
        let options = try KeychainItemOptions.parse(["--class", "key", "--tag", "t", "--label", "L", "--accessibility", "always"])
        #expect(options.resolvedClass == .key)
        #expect(options.attributes == KeychainAttributes(label: "L", applicationTag: Data("t".utf8), accessibility: .always))
        #expect(try KeychainItemOptions.parse([]).resolvedClass == .genericPassword)
    }

    @Test func entitlementGroupsNeedAnApp() {
        #expect(throws: (any Error).self) {
            try KeychainStoreOptions.parse(["--store", "s", "--device-secret-file", "f", "--entitlement-group", "g"])
        }
    }
}
