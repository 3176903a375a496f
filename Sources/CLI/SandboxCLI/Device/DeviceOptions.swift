import ArgumentParser
import Device
import Foundation

/// The options every device command shares: which device, and JSON output.
struct DeviceOptions: ParsableArguments, JSONOrTextOutput {
    @OptionGroup var selection: DeviceSelection<DefaultDevice>

    @Flag(help: "Print JSON (stable) instead of text.")
    var json = false

    /// Opens the device, with a hint when it does not exist.
    func open() throws -> Device { try selection.open() }
}
