import ArgumentParser
import Foundation
import OrderedCollections
import Preferences
import PropertyList

/// `sandbox defaults read [domain [key]]`.
struct DefaultsReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read", abstract: "Print every domain of the container, one domain, or one key.")

    @OptionGroup var options: DefaultsOptions
    @Argument(help: ArgumentHelp("The domain (bundle id or plist path; none with -g), then the key.",
                                 valueName: "domain-and-key"))
    var arguments: [String] = []

    func validate() throws {
        if arguments.count > (options.global ? 1 : 2) { throw ValidationError("read takes at most a domain and a key") }
    }

    func run() throws {
        try DefaultsRunner.run {
            if arguments.isEmpty && !options.global {
                var all = OrderedDictionary<String, PropertyListValue>()
                for name in try DefaultsDomainsCommand.domainNames(options) {
                    all[name] = .dictionary(try options.open(name).persistentDomain)
                }
                return try DefaultsPrinter.print(.dictionary(all), json: options.json)
            }
            let (domain, rest) = try options.split(arguments)
            guard try options.exists(domain) else {
                throw DefaultsError("Domain \(DefaultsOptions.displayName(domain)) does not exist")
            }
            let values = try options.open(domain).persistentDomain
            guard let key = rest.first else { return try DefaultsPrinter.print(.dictionary(values), json: options.json) }
            guard let value = values[key] else {
                throw DefaultsError("The domain/default pair of (\(DefaultsOptions.displayName(domain)), \(key)) does not exist")
            }
            try DefaultsPrinter.print(value, json: options.json)
        }
    }
}
