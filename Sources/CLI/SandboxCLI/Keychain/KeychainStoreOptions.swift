import ArgumentParser
import Foundation
import Keychain

/// The options every `sandbox keychain` command shares: which store, which
/// device secret, and which caller.
struct KeychainStoreOptions: ParsableArguments, JSONOrTextOutput {
    /// The environment variable read when no secret file is given.
    static let secretVariable = "SANDBOX_KEYCHAIN_DEVICE_SECRET"

    @Option(help: ArgumentHelp("The keychain store directory (created if missing).", valueName: "dir"))
    var store: String

    @Option(help: ArgumentHelp("A file whose bytes are the device secret.", valueName: "path"))
    var deviceSecretFile: String?

    @Option(help: ArgumentHelp("Act as the app with this identifier (<team>.<bundle id>).", valueName: "app-id"))
    var app: String?

    @Option(help: ArgumentHelp("A keychain-access-groups entitlement of --app (repeatable; the first is the default group).",
                               valueName: "group"))
    var entitlementGroup: [String] = []

    @Flag(help: "Print JSON (stable) instead of text.")
    var json = false

    func validate() throws {
        if app == nil && !entitlementGroup.isEmpty {
            throw ValidationError("--entitlement-group needs --app")
        }
        if deviceSecretFile == nil && ProcessInfo.processInfo.environment[Self.secretVariable] == nil {
            throw Self.missingSecret
        }
    }

    private static let missingSecret = ValidationError("give --device-secret-file <path> or set \(secretVariable)")

    /// The device secret from `file`, or else from `environment`.
    static func deviceSecret(file: String?, environment: [String: String]) throws -> KeychainDeviceSecret {
        if let file {
            return try KeychainDeviceSecret(FileInput.read(file, limit: 1 << 16))
        }
        if let text = environment[secretVariable] {
            return try KeychainDeviceSecret(Data(text.utf8))
        }
        throw missingSecret
    }

    /// The client the command acts through: the app's, or the device's.
    func client() throws -> KeychainClient {
        let secret = try Self.deviceSecret(file: deviceSecretFile, environment: ProcessInfo.processInfo.environment)
        let keychain = try Keychain(storeDirectory: URL(fileURLWithPath: store, isDirectory: true), deviceSecret: secret)
        guard let app else { return keychain.deviceClient }
        return keychain.client(for: KeychainEntitlements(applicationIdentifier: app, keychainAccessGroups: entitlementGroup))
    }
}
