import Foundation
import PropertyList

/// The argument domain: `-key value` pairs among a process's launch
/// arguments, read the way Foundation reads them.
public enum ArgumentDomain {
    /// The values `arguments` set.
    ///
    /// An argument that starts with `-` and is followed by one that does
    /// not is a key and its value. A value whose first character opens a
    /// property list (`{ ( [ < "`) is parsed as one, in any text format;
    /// every other value, or one that does not parse, is a string. So
    /// `-Theme dark` gives `"dark"`, `-Sizes "(1, 2)"` an array of two
    /// strings, and `-Flag YES` the string `"YES"`, which
    /// ``Preferences/bool(forKey:)`` reads as `true`. A later pair wins.
    public static func values(from arguments: [String]) -> [String: PropertyListValue] {
        var result: [String: PropertyListValue] = [:]
        var index = arguments.startIndex
        while index + 1 < arguments.endIndex {
            let current = arguments[index]
            let next = arguments[index + 1]
            guard current.hasPrefix("-"), current.count > 1, !next.hasPrefix("-") else {
                index += 1
                continue
            }
            result[String(current.dropFirst())] = parse(next)
            index += 2
        }
        return result
    }

    /// One argument's value: a property list if it looks like one and
    /// parses, otherwise the string itself.
    static func parse(_ text: String) -> PropertyListValue {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, "{([<\"".contains(first),
              let value = try? PropertyListValue(data: Data(trimmed.utf8)) else {
            return .string(text)
        }
        return value
    }
}
