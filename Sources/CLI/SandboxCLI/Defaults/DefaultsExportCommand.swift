import ArgumentParser
import Foundation
import Preferences
import PropertyList

/// `sandbox defaults export domain path|-`.
struct DefaultsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a domain to a file as a binary plist, or to standard output ('-') as XML (JSON with --json).")

    @OptionGroup var options: DefaultsOptions
    @Argument(help: ArgumentHelp("The domain (none with -g), then the path or '-'.", valueName: "domain-and-path"))
    var arguments: [String] = []

    func run() throws {
        let (domain, rest) = try options.split(arguments)
        guard rest.count == 1, let path = rest.first else { throw ValidationError("export needs a domain and a path") }
        try DefaultsRunner.run {
            guard try options.exists(domain) else {
                throw DefaultsError("Domain \(DefaultsOptions.displayName(domain)) does not exist")
            }
            let value = PropertyListValue.dictionary(try options.open(domain).persistentDomain)
            if path == "-" {
                try FileOutput.writeToStandardOutput(
                    options.json ? try JSONOutput.encode(value) : try value.encoded(as: .xml))
            } else {
                try FileOutput.writeAtomically(try value.encoded(as: .binary), to: path)
            }
        }
    }
}
