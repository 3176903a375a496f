import ArgumentParser
import Foundation
import Preferences
import PropertyList

/// `sandbox defaults import domain path|-`.
struct DefaultsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Replace a domain with the dictionary in a plist file (any format), or standard input ('-').")

    @OptionGroup var options: DefaultsOptions
    @Argument(help: ArgumentHelp("The domain (none with -g), then the path or '-'.", valueName: "domain-and-path"))
    var arguments: [String] = []

    func run() throws {
        let (domain, rest) = try options.split(arguments)
        guard rest.count == 1, let path = rest.first else { throw ValidationError("import needs a domain and a path") }
        try DefaultsRunner.run {
            let value = try PropertyListValue(data: try FileInput.read(path))
            guard case .dictionary(let entries) = value else {
                throw DefaultsError("\(path): the property list is a \(value.typeName), not a dictionary")
            }
            let prefs = try options.open(domain)
            prefs.setPersistentDomain(entries)
            try prefs.flush(durability: .durable)
        }
    }
}
