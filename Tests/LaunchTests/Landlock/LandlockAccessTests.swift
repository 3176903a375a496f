@testable import Launch
@testable import LaunchCore
import Testing

@Suite struct LandlockAccessTests {
    @Test("each ABI handles the rights it knows")
    func rightsPerABI() {
        #expect(LandlockAccess.handled(byABI: 0).isEmpty)
        let one = LandlockAccess.handled(byABI: 1)
        #expect(one.rawValue == 0x1fff)
        #expect(!one.contains(.refer))
        #expect(LandlockAccess.handled(byABI: 2).contains(.refer))
        #expect(!LandlockAccess.handled(byABI: 2).contains(.truncate))
        #expect(LandlockAccess.handled(byABI: 3).contains(.truncate))
        #expect(!LandlockAccess.handled(byABI: 4).contains(.ioctlDevice))
        #expect(LandlockAccess.handled(byABI: 5).contains(.ioctlDevice))
        #expect(LandlockAccess.handled(byABI: 7) == LandlockAccess.handled(byABI: 5))
        #expect(LandlockScope.handled(byABI: 5).isEmpty)
        #expect(LandlockScope.handled(byABI: 6) == [.signal, .abstractUnixSocket])
    }

    @Test("data directories can be written but never executed; nothing makes devices")
    func policySets() {
        #expect(!LandlockAccess.readWrite.contains(.execute))
        #expect(!LandlockAccess.readWrite.contains(.makeCharacterDevice))
        #expect(!LandlockAccess.readWrite.contains(.makeBlockDevice))
        #expect(!LandlockAccess.readExecute.contains(.writeFile))
        #expect(LandlockAccess.device.isSubset(of: .fileRights))
    }

    @Test("the kernel's answer is consistent")
    func availability() {
        #expect(Landlock.isAvailable == (Landlock.abiVersion >= 1))
        #expect((Landlock.unavailableReason == nil) == Landlock.isAvailable)
    }

    @Test("a launch's system paths are read-only and leave out /etc, /tmp and /")
    func systemPaths() {
        let rules = SystemPaths.rules
        #expect(rules.allSatisfy { $0.optional })
        #expect(rules.contains { $0.path == "/usr" && $0.access == .readExecute })
        #expect(!rules.contains { $0.path == "/etc" || $0.path == "/tmp" || $0.path == "/" })
        #expect(!rules.contains { $0.access.contains(.writeFile) && $0.path != "/dev/null" })
    }
}
