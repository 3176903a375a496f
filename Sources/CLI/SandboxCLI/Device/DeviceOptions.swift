import ArgumentParser
import Device
import Foundation

/// The options every device command shares: which device, and JSON output.
struct DeviceOptions: ParsableArguments {
    @OptionGroup var selection: DeviceSelection<DefaultDevice>

    @Flag(help: "Print JSON (stable) instead of text.")
    var json = false

    /// Opens the device, with a hint when it does not exist.
    func open() throws -> Device { try selection.open() }

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
            try JSONOutput.print(value())
        } else {
            let line = try text()
            guard !line.isEmpty else { return }
            try CommandRunner.print(line.hasSuffix("\n") ? line : line + "\n")
        }
    }
}
