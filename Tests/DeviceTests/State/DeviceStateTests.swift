@testable import Device
import Foundation
import Keychain
import TestSupport
import Testing

@Suite struct DeviceStateTests {
    @Test func createGivesAnIdentityAndASecretOutsideEveryContainer() throws {
        let fixture = try DeviceFixture()
        let device = fixture.device
        #expect(UUID(uuidString: device.identity.udid) != nil)
        #expect(device.identity.name == "test")
        let secret = device.root.appendingPathComponent("Secrets/device-secret")
        let attributes = try FileManager.default.attributesOfItem(atPath: secret.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try Data(contentsOf: secret).count == 32)
        #expect(FileManager.default.fileExists(atPath: device.root.appendingPathComponent("Keychains/keychain-2.db").path))
        let reopened = try Device.open(at: device.root)
        #expect(reopened.identity == device.identity)
    }

    @Test func systemDirectoriesBackTheLocalAndSystemDomains() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        let paths = try app.searchPaths()
        let system = paths.directories(.applicationDirectory, .systemDomainMask, expandTilde: true)
        #expect(system == [fixture.device.systemRoot.appendingPathComponent("Applications").path])
        #expect(FileManager.default.fileExists(atPath: system[0]))
        let library = paths.directories(.libraryDirectory, .localDomainMask, expandTilde: true)
        #expect(FileManager.default.fileExists(atPath: try #require(library.first)))
        #expect(!paths.isWritable(system[0] + "/x"))
        #expect(paths.isWritable(app.dataContainerURL.appendingPathComponent("Documents/x").path))
    }

    @Test func lockAndUnlockDriveTheKeychain() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        let client = app.keychainClient(on: fixture.device)
        try client.add(.genericPassword, KeychainAttributes(service: "s", account: "a"), data: Data("x".utf8))
        try fixture.device.lock()
        #expect(try fixture.device.isLocked)
        let error = try #require(throws: KeychainError.self) {
            try client.item(KeychainQuery(.genericPassword, KeychainAttributes(service: "s"), returning: .data))
        }
        #expect(error.code == .interactionNotAllowed)
        try fixture.device.unlock()
        #expect(try !fixture.device.isLocked)
    }

    @Test func eraseRemovesAppsAndItemsButKeepsTheIdentity() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        try app.keychainClient(on: fixture.device).add(.genericPassword, KeychainAttributes(service: "s"), data: Data())
        try fixture.device.erase()
        #expect(try fixture.device.installedBundleIDs().isEmpty)
        #expect(fixture.containerDirectories("Data/Application").isEmpty)
        #expect(throws: KeychainError.self) {
            try fixture.device.keychain.deviceClient.item(KeychainQuery(.genericPassword))
        }
        #expect(try Device.open(at: fixture.device.root).identity == fixture.device.identity)
    }

    @Test func defaultRootsFollowSandboxHome() {
        let withHome = Device.devicesDirectory(environment: ["SANDBOX_HOME": "/srv/sb", "HOME": "/home/u"])
        #expect(withHome.path == "/srv/sb/devices")
        let without = SandboxHome(root: SandboxHome.root(environment: ["HOME": "/home/u"], isPrivileged: false)).devices
        #expect(without.path == "/home/u/.local/share/sandbox/devices")
        // Root's devices live where the unprivileged app user can reach them.
        let asRoot = SandboxHome(root: SandboxHome.root(environment: ["HOME": "/root"], isPrivileged: true)).devices
        #expect(asRoot.path == "/var/lib/sandbox/devices")
        #expect(Device.devicesDirectory(environment: ["HOME": "/home/u"]).path
                == SandboxHome(root: SandboxHome.root(environment: ["HOME": "/home/u"])).devices.path)
    }

    @Test func listFindsDevicesByName() throws {
        let temp = try TemporaryDirectory()
        _ = try Device.create(at: temp.url.appendingPathComponent("b"), name: "b")
        _ = try Device.create(at: temp.url.appendingPathComponent("a"), name: "a")
        try FileManager.default.createDirectory(at: temp.url.appendingPathComponent("not-a-device"), withIntermediateDirectories: true)
        #expect(Device.list(in: temp.url).map(\.identity.name) == ["a", "b"])
    }
}
