import ArgumentParser
import Foundation
import Preferences

/// `sandbox defaults delete domain [key]`.
struct DefaultsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Remove one key, or every key of a domain.")

    @OptionGroup var options: DefaultsOptions
    @Argument(help: ArgumentHelp("The domain (none with -g), then the key.", valueName: "domain-and-key"))
    var arguments: [String] = []

    func validate() throws {
        if arguments.count > (options.global ? 1 : 2) { throw ValidationError("delete takes a domain and at most one key") }
    }

    func run() throws {
        try DefaultsRunner.run {
            let (domain, rest) = try options.split(arguments)
            let name = DefaultsOptions.displayName(domain)
            guard try options.exists(domain) else { throw DefaultsError("Domain (\(name)) not found.") }
            let prefs = try options.open(domain)
            if let key = rest.first {
                guard prefs.persistentDomain[key] != nil else {
                    throw DefaultsError("Key \(key) does not exist in domain \(name); leaving defaults unchanged")
                }
                prefs.removeObject(forKey: key)
            } else {
                prefs.removePersistentDomain()
            }
            try prefs.flush(durability: .durable)
        }
    }
}
