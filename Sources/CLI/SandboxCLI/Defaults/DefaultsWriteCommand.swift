import ArgumentParser
import Foundation
import Preferences
import PropertyList

/// `sandbox defaults write domain key value…` and `write domain <dictionary>`.
struct DefaultsWriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Set a key (with defaults' value flags), or replace a domain with a dictionary.",
        discussion: """
            Values: <text> (old-style plist text, else a string) | -string s | -data hex | -int n | \
            -float f | -bool yes|no | -date ISO-8601 | -array item… | -array-add item… | \
            -dict key item… | -dict-add key item…; an item is a typed value (-int 1) or a string. \
            'write <domain> "{ k = v; }"' replaces the whole domain.
            """)

    @OptionGroup var options: DefaultsOptions
    @Argument(parsing: .captureForPassthrough,
              help: ArgumentHelp("The domain (none with -g), the key, then the value.", valueName: "domain-key-value"))
    var arguments: [String] = []

    func run() throws {
        let (domain, rest) = try options.split(arguments)
        guard let key = rest.first else { throw ValidationError("write needs a key and a value") }
        let tokens = Array(rest.dropFirst())
        if tokens.isEmpty {
            // `write <domain> <domain_rep>`: the whole domain.
            guard case .dictionary(let entries) = DefaultsValueParser.valueRepresentation(key) else {
                throw ValidationError("write needs a value after the key, or a dictionary to replace the domain")
            }
            return try DefaultsRunner.run {
                let prefs = try options.open(domain)
                prefs.setPersistentDomain(entries)
                try prefs.flush(durability: .durable)
            }
        }
        let action = try DefaultsValueParser.parse(tokens)
        try DefaultsRunner.run {
            let prefs = try options.open(domain)
            switch action {
            case .set(let value):
                prefs.set(value, forKey: key)
            case .arrayAdd(let items):
                let current = prefs.persistentDomain[key]
                guard current == nil || current?.arrayValue != nil else {
                    throw DefaultsError("Value for key \(key) is not an array; cannot append. Leaving defaults unchanged.")
                }
                prefs.set(.array((current?.arrayValue ?? []) + items), forKey: key)
            case .dictionaryAdd(let entries):
                let current = prefs.persistentDomain[key]
                guard current == nil || current?.dictionaryValue != nil else {
                    throw DefaultsError("Value for key \(key) is not a dictionary; cannot add entries. Leaving defaults unchanged.")
                }
                var merged = current?.dictionaryValue ?? [:]
                merged.merge(entries) { _, new in new }
                prefs.set(.dictionary(merged), forKey: key)
            }
            try prefs.flush(durability: .durable)
        }
    }
}
