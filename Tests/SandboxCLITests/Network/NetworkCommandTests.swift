import Foundation
import PropertyList
import Testing

/// `sandbox network status|set`, and `sandbox launch` honouring the
/// conditions, run as the built executable.
@Suite struct NetworkCommandTests {
    private func json(_ result: SandboxProcess.Result) throws -> PropertyListValue {
        try PropertyListValue.decode(result.standardOutput, as: .json)
    }

    /// A JSON number, written as an integer or a real.
    private func number(_ value: PropertyListValue?) -> Double? {
        value?.realValue ?? value?.int64Value.map(Double.init)
    }

    private func home() throws -> DeviceCommandTests.Home {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "ci"]).status == 0)
        return home
    }

    @Test func statusOfANewDevice() throws {
        let home = try home()
        let result = try home.run(["network", "status", "--device", "ci", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let status = try json(result)
        #expect(number(status["clock"]) == 0)
        #expect(status["wifi"]?["enabled"]?.boolValue == true)
        #expect(status["wifi"]?["radioOn"]?.boolValue == true)
        #expect(number(status["wifi"]?["timer"]?["deadline"]) == 1800)
        #expect(status["cellular"]?["enabled"]?.boolValue == false)
        #expect(status["airplaneMode"]?.boolValue == false)
        #expect(status["locked"]?.boolValue == false)
        #expect(status["route"]?.stringValue == "wifi")
        #expect(status["unavailable"] == nil)

        let text = try home.run(["network", "status", "--device", "ci"])
        #expect(text.output.contains("Wi-Fi: on, power timer fires at 1800 s"))
        #expect(text.output.contains("Route: Wi-Fi"))
    }

    @Test func advancingThirtyMinutesTurnsWiFiOff() throws {
        let home = try home()
        let result = try home.run(["network", "set", "--advance", "1800", "--device", "ci", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let status = try json(result)
        #expect(number(status["clock"]) == 1800)
        #expect(status["wifi"]?["poweredOffByTimer"]?.boolValue == true)
        #expect(status["route"] == nil)
        #expect(status["unavailable"]?["reason"]?.stringValue == "wifiOffByTimer")
        #expect(status["unavailable"]?["message"]?.stringValue?.contains("30 minutes") == true)
        // Persisted: a second command sees the same clock; cellular gives a route back.
        let cellular = try json(try home.run(["network", "set", "--cellular", "on", "--device", "ci", "--json"]))
        #expect(number(cellular["clock"]) == 1800)
        #expect(cellular["route"]?.stringValue == "cellular")
    }

    @Test func theLocalNetworkIsRefusedUntilTheDeviceAllowsIt() throws {
        let home = try home()
        let fresh = try json(try home.run(["network", "status", "--device", "ci", "--json"]))
        #expect(fresh["localNetworkAllowed"]?.boolValue == false)
        let allowed = try json(try home.run(["network", "set", "--local-network", "on", "--device", "ci", "--json"]))
        #expect(allowed["localNetworkAllowed"]?.boolValue == true)
        // Kept with the device's other conditions.
        let text = try home.run(["network", "status", "--device", "ci"])
        #expect(text.output.contains("Local network: allowed"), "\(text.output)")
    }

    @Test func airplaneModeAndWiFiBackOnInsideIt() throws {
        let home = try home()
        let airplane = try json(try home.run(["network", "set", "--airplane", "on", "--cellular", "on", "--device", "ci", "--json"]))
        #expect(airplane["airplaneMode"]?.boolValue == true)
        #expect(airplane["cellular"]?["radioOn"]?.boolValue == false)
        #expect(airplane["unavailable"]?["reason"]?.stringValue == "airplaneMode")
        let back = try json(try home.run(["network", "set", "--wifi", "on", "--device", "ci", "--json"]))
        #expect(back["wifi"]?["reenabledInAirplaneMode"]?.boolValue == true)
        #expect(back["route"]?.stringValue == "wifi")
        let text = try home.run(["network", "status", "--device", "ci"])
        #expect(text.output.contains("Airplane mode: on"))
        #expect(text.output.contains("turned back on in airplane mode"))
    }

    @Test func lockLocksTheDevice() throws {
        let home = try home()
        let locked = try json(try home.run(["network", "set", "--lock", "on", "--device", "ci", "--json"]))
        #expect(locked["locked"]?.boolValue == true)
        #expect(locked["unavailable"]?["reason"]?.stringValue == "deviceLocked")
        #expect(try json(try home.run(["device", "info", "--device", "ci", "--json"]))["locked"]?.boolValue == true)
        #expect(try home.run(["device", "unlock", "--device", "ci"]).status == 0)
        let status = try json(try home.run(["network", "status", "--device", "ci", "--json"]))
        #expect(status["locked"]?.boolValue == false)
        #expect(status["route"]?.stringValue == "wifi")
    }

    @Test func badUsageIsAUsageError() throws {
        let home = try home()
        #expect(try home.run(["network", "set", "--device", "ci"]).status == 64, "nothing to set")
        #expect(try home.run(["network", "set", "--wifi", "maybe", "--device", "ci"]).status == 64)
        #expect(try home.run(["network", "set", "--advance", "-5", "--device", "ci"]).status == 64)
        let missing = try home.run(["network", "status", "--device", "nowhere"])
        #expect(missing.status == 1)
        #expect(missing.errorLines.count == 1 && missing.standardError.contains("sandbox device create nowhere"))
    }

    @Test func helpHasExamples() throws {
        let home = try home()
        for command in [["network", "--help"], ["network", "set", "--help"], ["network", "status", "--help"]] {
            let help = try home.run(command)
            #expect(help.status == 0)
            #expect(help.output.contains("Examples:"), "\(command)")
        }
    }

    @Test("launch shows the airplane-mode alert for an app that requires persistent Wi-Fi")
    func launchShowsTheAlert() throws {
        let home = try home()
        let folder = "Maps-1/Maps.app"
        let info: PropertyListValue = ["CFBundleIdentifier": "com.example.maps", "CFBundleVersion": "1",
                                       "CFBundleExecutable": "Maps", "CFBundleName": "Maps",
                                       "UIRequiresPersistentWiFi": .bool(true)]
        try FileManager.default.createDirectory(at: home.directory.url.appendingPathComponent(folder),
                                                withIntermediateDirectories: true)
        _ = try home.directory.write(try info.encoded(as: .xml), to: "\(folder)/Info.plist")
        let executable = try home.directory.write(Data("#!/bin/sh\nexit 0\n".utf8), to: "\(folder)/Maps")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        #expect(try home.run(["install", folder, "--device", "ci"]).status == 0)
        #expect(try home.run(["network", "set", "--airplane", "on", "--device", "ci"]).status == 0)

        let launched = try home.run(["launch", "--wait", "--json", "--device", "ci", "com.example.maps"])
        #expect(launched.status == 0, "\(launched.standardError)")
        let summary = try json(launched)
        #expect(summary["airplaneModeAlert"]?.boolValue == true)
        #expect(summary["network"]?["requiresPersistentWiFi"]?.boolValue == true)
        #expect(summary["network"]?["unavailable"]?["reason"]?.stringValue == "airplaneMode")
        #expect(launched.standardError.contains("Alert: Turn Off Airplane Mode or Use Wi-Fi to Access Data: Maps"))

        #expect(try home.run(["network", "set", "--wifi", "on", "--device", "ci"]).status == 0)
        let again = try json(try home.run(["launch", "--wait", "--json", "--device", "ci", "com.example.maps"]))
        #expect(again["airplaneModeAlert"]?.boolValue == false, "Wi-Fi was turned back on")
        #expect(again["network"]?["route"]?.stringValue == "wifi")
    }
}
