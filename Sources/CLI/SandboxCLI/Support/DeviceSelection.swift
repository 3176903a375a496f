import ArgumentParser
import Device
import Foundation

/// `--device <name|path>`: the device a command acts on, declared here once
/// for every command that takes one (through `@OptionGroup`).
///
/// The option is optional; `Omitted` says in its help what the command does
/// without it: the device commands act on ``DeviceName/fallback``
/// (``DefaultDevice``), `sandbox defaults` falls back to `--container`.
struct DeviceSelection<Omitted: DeviceSelectionHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The device: a name under $SANDBOX_HOME/devices (else ~/.local/share/sandbox/devices; /var/lib/sandbox/devices as root), or a path (containing '/')."
            + Omitted.whenOmitted,
        valueName: "name|path"))
    var device: String?
}

/// The end of `--device`'s help: what the command does when it is not given.
protocol DeviceSelectionHelp {
    static var whenOmitted: String { get }
}

/// Commands that act on the device named ``DeviceName/fallback`` unless
/// `--device` names another.
enum DefaultDevice: DeviceSelectionHelp {
    static let whenOmitted = " (default: \(DeviceName.fallback))"
}

extension DeviceSelection where Omitted == DefaultDevice {
    /// `--device`, else ``DeviceName/fallback``.
    var resolved: String { device ?? DeviceName.fallback }

    /// Opens the device, with a hint when it does not exist.
    func open() throws -> Device { try DeviceName.open(resolved) }
}

/// A device as the command line names it: a name under
/// ``SandboxHome/devices``, or a path.
enum DeviceName {
    /// The device commands act on when none is named.
    static let fallback = "default"

    /// A name is looked up in the devices directory; anything with a `/`
    /// (or starting with `.`) is a path.
    static func root(of device: String) -> URL {
        if device.contains("/") || device.hasPrefix(".") {
            return URL(fileURLWithPath: device, isDirectory: true).standardizedFileURL
        }
        return Device.defaultRoot(name: device)
    }

    /// Opens the device `device` names, with a hint when there is none.
    static func open(_ device: String) throws -> Device {
        let root = root(of: device)
        do { return try Device.open(at: root) } catch let error as DeviceError where error.code == .notADevice {
            throw DeviceError(.notADevice, path: root.path,
                              "no device '\(device)' at \(root.path) (create it with: sandbox device create \(device))")
        }
    }
}
