import ArgumentParser
import Foundation
import Preferences
import PropertyList

/// The options every `sandbox defaults` command shares.
struct DefaultsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The app (or app group) container whose Library/Preferences holds the domains.",
                               valueName: "dir"))
    var container: String?

    @Flag(name: [.customShort("g"), .customLong("globalDomain", withSingleDash: true)],
          help: "Use the global domain (.GlobalPreferences.plist) instead of naming one.")
    var global = false

    @Flag(help: "Print JSON (stable) instead of property-list text.")
    var json = false

    /// `Library/Preferences` of the container.
    func preferencesDirectory() throws -> URL {
        guard let container else { throw ValidationError("give --container <dir> to name a domain by bundle id") }
        return URL(fileURLWithPath: container, isDirectory: true)
            .appendingPathComponent("Library/Preferences", isDirectory: true)
    }

    /// The file of `domain` (or of the global domain with -g).
    func domainFile(_ domain: String?) throws -> URL {
        if global || domain == Preferences.globalDomainName {
            return try preferencesDirectory().appendingPathComponent(Preferences.globalDomainFileName)
        }
        guard let domain, !domain.isEmpty else { throw ValidationError("give a domain, or -g for the global domain") }
        if domain.contains("/") || domain.hasSuffix(".plist") {
            // `defaults` names a file without its `.plist`; accept both.
            let url = URL(fileURLWithPath: domain)
            if url.pathExtension == "plist" || FileManager.default.fileExists(atPath: url.path) { return url }
            return url.appendingPathExtension("plist")
        }
        return try preferencesDirectory().appendingPathComponent(domain + ".plist")
    }

    /// A store on the domain's file that writes only when told to.
    func open(_ domain: String?) throws -> Preferences {
        try Preferences(domainFile: domainFile(domain),
                        configuration: .init(coalescingDelay: nil, sharesDomainsInProcess: false))
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

/// A failure `defaults` reports in its own words.
struct DefaultsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
