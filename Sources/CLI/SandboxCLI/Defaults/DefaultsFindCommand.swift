import ArgumentParser
import Foundation
import OrderedCollections
import PropertyList

/// `sandbox defaults find word`: the keys of every domain in the container
/// whose name or value contains `word` (case-insensitive).
struct DefaultsFindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: "Search every domain of the container for keys or values containing a word.")

    @OptionGroup var options: DefaultsOptions
    @Argument(help: "The word to look for (case-insensitive).") var word: String

    func run() throws {
        try DefaultsRunner.run {
            var found = OrderedDictionary<String, PropertyListValue>()
            for name in try DefaultsDomainsCommand.domainNames(options) {
                let matches = try options.open(name).persistentDomain.filter { key, value in
                    Self.contains(key, word) || Self.matches(value, word)
                }
                if !matches.isEmpty { found[name] = .dictionary(matches) }
            }
            if options.json { return try DefaultsPrinter.print(.dictionary(found), json: true) }
            if found.isEmpty {
                return try CommandRunner.print("Found no keys matching '\(word)'.\n")
            }
            for (name, matches) in found {
                let count = matches.dictionaryValue?.count ?? 0
                try CommandRunner.print("Found \(count) keys in domain '\(name)': ")
                try DefaultsPrinter.print(matches, json: false)
            }
        }
    }

    private static func contains(_ text: String, _ word: String) -> Bool {
        text.range(of: word, options: .caseInsensitive) != nil
    }

    /// Whether a string anywhere in `value` (keys of nested dictionaries
    /// included) contains `word`.
    static func matches(_ value: PropertyListValue, _ word: String) -> Bool {
        switch value {
        case .string(let text): contains(text, word)
        case .array(let items): items.contains { matches($0, word) }
        case .dictionary(let entries): entries.contains { contains($0.key, word) || matches($0.value, word) }
        default: false
        }
    }
}
