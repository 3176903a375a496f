import ArgumentParser
import FileSystem
import Foundation
import Preferences
import PropertyList

/// `sandbox defaults domains`: the domains in a container.
struct DefaultsDomainsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "domains", abstract: "List the domains in the container's Library/Preferences.")

    @OptionGroup var options: DefaultsOptions

    func run() throws {
        try DefaultsRunner.run {
            let names = try Self.domainNames(options)
            try options.output(json: ["domains": .array(names.map(PropertyListValue.string))] as PropertyListValue,
                               text: names.joined(separator: ", ") + "\n")
        }
    }

    /// The bundle ids with a plist in the container (or, with `--device`,
    /// the installed apps with one), sorted; the global domain and lock or
    /// temporary files are not domains.
    static func domainNames(_ options: DefaultsOptions) throws -> [String] {
        if options.device != nil && options.container == nil {
            // On a device: the installed apps that have a preferences file.
            return try options.openDevice().installedApps().map(\.bundleID)
                .filter { (try? options.exists($0)) ?? false }
                .sorted()
        }
        let directory = try options.preferencesDirectory()
        let names: [String]
        do {
            // A missing directory is no domains.
            names = try PathChecks.entries(directory.path)
        } catch {
            throw DefaultsError("cannot list \(directory.path): \(error.reason)")
        }
        return names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }
            .map { String($0.dropLast(".plist".count)) }
            .sorted()
    }
}
