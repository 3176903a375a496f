import Foundation
import PropertyList
import TestSupport
import Testing
@testable import NetworkConditions

/// `UIRequiresPersistentWiFi` counts only as the Boolean true.
@Suite struct PersistentWiFiKeyTests {
    private func info(_ value: PropertyListValue?) -> PropertyListValue {
        var entries: [(String, PropertyListValue)] = [("CFBundleIdentifier", .string("com.example.maps"))]
        if let value { entries.append((PersistentWiFiKey.name, value)) }
        return .dictionary(.init(uniqueKeysWithValues: entries))
    }

    @Test func onlyTheBooleanTrueCounts() {
        #expect(PersistentWiFiKey.isRequired(by: info(.bool(true))))
        #expect(!PersistentWiFiKey.isRequired(by: info(.bool(false))))
        #expect(!PersistentWiFiKey.isRequired(by: info(.string("YES"))), "a string YES is not a Boolean")
        #expect(!PersistentWiFiKey.isRequired(by: info(.string("true"))))
        #expect(!PersistentWiFiKey.isRequired(by: info(.integer(1))))
        #expect(!PersistentWiFiKey.isRequired(by: info(nil)))
        #expect(!PersistentWiFiKey.isRequired(by: .array([])))
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func infoPlistFilesAreParsed(format: PropertyListFormat) throws {
        let temp = try TemporaryDirectory("persistent-wifi")
        _ = try temp.write(try info(.bool(true)).encoded(as: format), to: "Yes.plist")
        _ = try temp.write(try info(.string("YES")).encoded(as: format), to: "String.plist")
        #expect(try PersistentWiFiKey.isRequired(byInfoPlist: try temp.read("Yes.plist")))
        #expect(try !PersistentWiFiKey.isRequired(byInfoPlist: try temp.read("String.plist")))
    }

    @Test func aStringYESDoesNotHoldTheTimer() throws {
        var network = DeviceNetwork()
        let requires = PersistentWiFiKey.isRequired(by: info(.string("YES")))
        let report = network.appLaunched("com.example.maps", requiresPersistentWiFi: requires)
        #expect(!report.holdsWiFiTimer)
        try network.advance(by: WiFiPowerTimer.interval)
        #expect(network.currentRoute.unavailable?.reason == .wifiOffByTimer)
    }

    @Test func somethingThatIsNotAPlistIsAnError() {
        #expect(throws: (any Error).self) { try PersistentWiFiKey.isRequired(byInfoPlist: Data("not a plist <".utf8)) }
    }
}
