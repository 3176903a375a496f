import Foundation
import Keychain
import TestSupport

/// A keychain store in a fresh temporary directory, removed when the last
/// copy of the fixture goes away, with a clock the test moves by hand.
final class KeychainFixture: Sendable {
    /// The scratch directory, removed with the fixture.
    private let scratch: TemporaryDirectory
    let directory: URL
    let secret: KeychainDeviceSecret
    let clock: TestClock
    let keychain: Keychain

    init(policy: KeychainUninstallPolicy = .retain, secret: KeychainDeviceSecret = .random()) throws {
        scratch = try TemporaryDirectory("keychain")
        directory = scratch.url
        self.secret = secret
        let clock = TestClock()
        self.clock = clock
        keychain = try Keychain(storeDirectory: directory, deviceSecret: secret,
                                configuration: .init(uninstallPolicy: policy, now: { clock.now }))
    }

    /// Another keychain on the same store, as a second process would open it.
    func reopen(policy: KeychainUninstallPolicy = .retain) throws -> Keychain {
        try Keychain(storeDirectory: directory, deviceSecret: secret,
                     configuration: .init(uninstallPolicy: policy, now: { [clock] in clock.now }))
    }

    /// Every byte of every file in the store directory (database, WAL, shared memory).
    func storeBytes() throws -> Data {
        var result = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            result.append(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        return result
    }
}

/// A clock that stands still until a test advances it.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}

/// Apps used across the tests.
enum Apps {
    /// An app with a shared keychain group and an app group.
    static let mail = KeychainEntitlements(
        applicationIdentifier: "TEAM1.com.example.mail", keychainAccessGroups: ["TEAM1.shared"],
        applicationGroups: ["group.com.example"])
    /// Another app of the same team that shares `TEAM1.shared`.
    static let calendar = KeychainEntitlements(
        applicationIdentifier: "TEAM1.com.example.calendar", keychainAccessGroups: ["TEAM1.shared"])
    /// An unrelated app.
    static let game = KeychainEntitlements(applicationIdentifier: "TEAM2.com.other.game")
}

extension Data {
    /// UTF-8 bytes of `text`.
    init(utf8 text: String) { self.init(text.utf8) }
}

extension KeychainQuery {
    /// A generic-password query by service and account.
    static func password(service: String, account: String? = nil, group: String? = nil,
                         limit: KeychainMatchLimit = .one, returning: KeychainReturn = .all) -> KeychainQuery {
        KeychainQuery(.genericPassword, KeychainAttributes(service: service, account: account, accessGroup: group),
                      limit: limit, returning: returning)
    }
}

extension Data {
    /// Whether `needle` occurs anywhere in these bytes.
    func containsBytes(_ needle: Data) -> Bool {
        range(of: needle) != nil
    }
}
