import ArgumentParser
import Foundation
import PropertyList

/// `sandbox defaults read-type domain key`: the type of one value.
struct DefaultsReadTypeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-type", abstract: "Print the type of one key's value ('Type is boolean').")

    @OptionGroup var options: DefaultsOptions
    @Argument(help: ArgumentHelp("The domain (none with -g), then the key.", valueName: "domain-and-key"))
    var arguments: [String] = []

    func validate() throws {
        if arguments.count != (options.global ? 1 : 2) { throw ValidationError("read-type takes a domain and a key") }
    }

    func run() throws {
        try DefaultsRunner.run {
            let (domain, rest) = try options.split(arguments)
            let key = rest[0]
            guard try options.exists(domain), let value = try options.open(domain).persistentDomain[key] else {
                throw DefaultsError("The domain/default pair of (\(DefaultsOptions.displayName(domain)), \(key)) does not exist")
            }
            let type = Self.typeName(value)
            try options.output(json: ["type": .string(type)] as PropertyListValue, text: "Type is \(type)\n")
        }
    }

    /// The names `defaults read-type` prints.
    static func typeName(_ value: PropertyListValue) -> String {
        switch value {
        case .string: "string"
        case .integer: "integer"
        case .real, .float: "float"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .uid: "uid"
        }
    }
}
