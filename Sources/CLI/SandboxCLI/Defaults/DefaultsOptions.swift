import ArgumentParser
import Container
import Device
import Foundation
import Preferences
import PropertyList

/// The options every `sandbox defaults` command shares.
struct DefaultsOptions: ParsableArguments, JSONOrTextOutput {
    @Option(help: ArgumentHelp("The app (or app group) container whose Library/Preferences holds the domains.",
                               valueName: "dir"))
    var container: String?

    @OptionGroup var selection: DeviceSelection<DefaultsDevice>

    /// `--device`, if given.
    var device: String? { selection.device }

    @Flag(name: [.customShort("g"), .customLong("globalDomain", withSingleDash: true)],
          help: "Use the global domain (.GlobalPreferences.plist) instead of naming one.")
    var global = false

    @Flag(help: "Print JSON (stable) instead of property-list text.")
    var json = false

    func validate() throws {
        if container != nil && device != nil { throw ValidationError("give --container or --device, not both") }
    }

    /// `Library/Preferences` of the container.
    func preferencesDirectory() throws -> URL {
        guard let container else {
            throw ValidationError("give --container <dir> or --device <name|path> to name a domain by bundle id")
        }
        return URL(fileURLWithPath: container, isDirectory: true)
            .appendingPathComponent(ContainerDirectory.preferences.relativePath, isDirectory: true)
    }

    /// The file of `domain` (or of the global domain with -g).
    func domainFile(_ domain: String?) throws -> URL {
        if global || domain == Preferences.globalDomainName {
            if device != nil { return try openDevice().systemRoot.appendingPathComponent(Self.devicePreferences) }
            return try preferencesDirectory().appendingPathComponent(Preferences.globalDomainFileName)
        }
        guard let domain, !domain.isEmpty else { throw ValidationError("give a domain, or -g for the global domain") }
        if domain.contains("/") || domain.hasSuffix(".plist") {
            // `defaults` names a file without its `.plist`; accept both.
            let url = URL(fileURLWithPath: domain)
            if url.pathExtension == "plist" || FileManager.default.fileExists(atPath: url.path) { return url }
            return url.appendingPathExtension("plist")
        }
        if device != nil {
            return try installedApp(domain).dataContainerURL
                .appendingPathComponent(ContainerDirectory.preferences.relativePath + "/\(domain).plist")
        }
        return try preferencesDirectory().appendingPathComponent(domain + ".plist")
    }

    /// The device's global domain, relative to its system root (where
    /// `InstalledApp.preferences()` reads it).
    static let devicePreferences = "Library/Preferences/" + Preferences.globalDomainFileName

    /// The device named by `--device`.
    func openDevice() throws -> Device {
        guard let device else { throw ValidationError("no --device given") }
        let root = DeviceName.root(of: device)
        do { return try Device.open(at: root) } catch let error as DeviceError where error.code == .notADevice {
            throw DefaultsError("no device '\(device)' at \(root.path)")
        }
    }

    /// The app `bundleID` installed on the `--device`.
    func installedApp(_ bundleID: String) throws -> InstalledApp {
        do { return try openDevice().app(bundleID) } catch let error as DeviceError {
            throw DefaultsError("Domain \(bundleID) does not exist (\(error.message))")
        }
    }

    /// A store on the domain that writes only when told to. A domain named
    /// by bundle id in a container goes through the container's file API,
    /// as the app's own store does; the global domain and plist paths are
    /// written by path (under the same lock file), and so is a container
    /// directory that does not exist yet (the write creates the file).
    func open(_ domain: String?) throws -> Preferences {
        let configuration = Preferences.Configuration(coalescingDelay: nil, sharesDomainsInProcess: false)
        if device != nil, let domain, !global, domain != Preferences.globalDomainName,
           !domain.contains("/"), !domain.hasSuffix(".plist") {
            // The app's own store: its data container, the device's global domain.
            return try installedApp(domain).preferences(configuration: configuration)
        }
        if let container, let domain, !global, domain != Preferences.globalDomainName,
           !domain.contains("/"), !domain.hasSuffix(".plist"),
           FileManager.default.fileExists(atPath: container) {
            let app = try AppContainer(existingAt: URL(fileURLWithPath: container, isDirectory: true))
            return try Preferences(container: app, bundleIdentifier: domain, configuration: configuration)
        }
        return try Preferences(domainFile: domainFile(domain), configuration: configuration)
    }

    /// Splits the positional arguments into a domain and the rest: with -g
    /// there is no domain argument (`nil` stands for the global domain).
    func split(_ arguments: [String]) throws -> (domain: String?, rest: [String]) {
        if global { return (nil, arguments) }
        guard let first = arguments.first else { throw ValidationError("give a domain, or -g for the global domain") }
        return (first, Array(arguments.dropFirst()))
    }

    /// The name messages use for `domain`.
    static func displayName(_ domain: String?) -> String { domain ?? Preferences.globalDomainName }

    /// Whether the domain's file exists.
    func exists(_ domain: String?) throws -> Bool {
        FileManager.default.fileExists(atPath: try domainFile(domain).path)
    }
}

/// What `--device` means to `sandbox defaults`, in its help.
enum DefaultsDevice: DeviceSelectionHelp {
    static let whenOmitted = " With it, a bundle id names that installed app's domain in its data container, and -g the device's global domain."
}

/// A failure `defaults` reports in its own words.
struct DefaultsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
