import ArgumentParser
import Device
import Foundation
import PropertyList

/// The options every device command shares: which device, and JSON output.
struct DeviceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The device: a name under $SANDBOX_HOME/devices (else ~/.local/share/sandbox/devices), or a path (containing '/').",
                               valueName: "name|path"))
    var device: String = "default"

    @Flag(help: "Print JSON (stable) instead of text.")
    var json = false

    /// The device's directory.
    var root: URL { Self.root(of: device) }

    /// A name is looked up in the devices directory; anything with a `/`
    /// (or starting with `.`) is a path.
    static func root(of device: String) -> URL {
        if device.contains("/") || device.hasPrefix(".") {
            return URL(fileURLWithPath: device, isDirectory: true).standardizedFileURL
        }
        return Device.defaultRoot(name: device)
    }

    /// Opens the device, with a hint when it does not exist.
    func open() throws -> Device {
        do { return try Device.open(at: root) } catch let error as DeviceError where error.code == .notADevice {
            throw DeviceError(.notADevice, path: root.path,
                              "no device '\(device)' at \(root.path) (create it with: sandbox device create \(device))")
        }
    }

    /// Prints `value` as JSON with `--json`, else `text`.
    func output(json value: @autoclosure () throws -> some Encodable, text: @autoclosure () throws -> String) throws {
        try DeviceOutput.emit(json: json, value(), text: text())
    }
}

/// Output of the device commands: stable JSON (sorted keys, ISO 8601
/// dates, a final newline) or text for people.
enum DeviceOutput {
    static func emit(json: Bool, _ value: @autoclosure () throws -> some Encodable, text: @autoclosure () throws -> String) throws {
        if json {
            try FileOutput.writeToStandardOutput(try encode(value()))
        } else {
            let line = try text()
            guard !line.isEmpty else { return }
            try CommandRunner.print(line.hasSuffix("\n") ? line : line + "\n")
        }
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let plist = try PropertyListValueEncoder().encode(value)
        return try plist.encoded(as: .json, options: PropertyListWriteOptions(sortsKeys: true)) + Data("\n".utf8)
    }
}
