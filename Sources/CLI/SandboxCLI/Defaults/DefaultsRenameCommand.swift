import ArgumentParser
import Foundation

/// `sandbox defaults rename domain old-key new-key`.
struct DefaultsRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Give a key's value a new key (the old key is removed).")

    @OptionGroup var options: DefaultsOptions
    @Argument(help: ArgumentHelp("The domain (none with -g), the old key, the new key.", valueName: "domain-and-keys"))
    var arguments: [String] = []

    func validate() throws {
        if arguments.count != (options.global ? 2 : 3) { throw ValidationError("rename takes a domain, an old key and a new key") }
    }

    func run() throws {
        try DefaultsRunner.run {
            let (domain, rest) = try options.split(arguments)
            let (old, new) = (rest[0], rest[1])
            let name = DefaultsOptions.displayName(domain)
            guard try options.exists(domain) else { throw DefaultsError("Domain (\(name)) not found.") }
            let prefs = try options.open(domain)
            guard let value = prefs.persistentDomain[old] else {
                throw DefaultsError("Key \(old) does not exist in domain \(name); leaving defaults unchanged")
            }
            guard old != new else { return }
            // Both keys change in one flush: under the domain's lock and
            // merge, so another writer sees the old key or the new, never both.
            prefs.set(value, forKey: new)
            prefs.removeObject(forKey: old)
            try prefs.flush(durability: .durable)
        }
    }
}
