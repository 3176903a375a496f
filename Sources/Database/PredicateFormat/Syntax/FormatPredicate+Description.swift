import Foundation

extension FormatPredicate: CustomStringConvertible {
    /// The canonical format: keywords upper-case, strings double-quoted,
    /// `==` for equality, modifiers in the order `[cdn]`, dates as
    /// `CAST(seconds, "NSDate")`. Parsing it gives back an equal predicate.
    public var description: String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison): return comparison.description
        case .not(let inner):
            switch inner {
            case .and, .or: return "NOT (\(inner))"
            default: return "NOT \(inner)"
            }
        case .and(let terms): return Self.join(terms, "AND")
        case .or(let terms): return Self.join(terms, "OR")
        }
    }

    private static func join(_ terms: [FormatPredicate], _ word: String) -> String {
        if terms.isEmpty { return word == "AND" ? "TRUEPREDICATE" : "FALSEPREDICATE" }
        if terms.count == 1 { return "(\(terms[0]))" }
        return terms.map { term in
            switch term {
            case .and, .or: "(\(term))"
            default: term.description
            }
        }.joined(separator: " \(word) ")
    }
}

extension FormatComparison: CustomStringConvertible {
    public var description: String {
        var text = ""
        switch modifier {
        case .direct: break
        case .any: text = "ANY "
        case .all: text = "ALL "
        }
        text += left.description + " " + `operator`.rawValue
        if !options.isEmpty {
            text += "["
            if options.contains(.caseInsensitive) { text += "c" }
            if options.contains(.diacriticInsensitive) { text += "d" }
            if options.contains(.normalized) { text += "n" }
            text += "]"
        }
        return text + " " + right.description
    }
}

extension FormatExpression: CustomStringConvertible {
    public var description: String {
        switch self {
        case .constant(let value): return Self.literal(value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .aggregate(let members): return "{" + members.map(\.description).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection), $\(variable), \(predicate))"
        case .keyPath(let base, let components):
            var parts: [String] = []
            if base != .evaluatedObject || components.isEmpty { parts.append(base.description) }
            for component in components {
                switch component {
                case .key(let key): parts.append(Keyword.named(key) == nil && Self.isPlainKey(key) ? key : "#" + key)
                case .collectionOperator(let op): parts.append("@" + op.rawValue)
                }
            }
            return parts.joined(separator: ".")
        }
    }

    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.first, first == "_" || first.isLetter else { return false }
        return key.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }

    static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .integer(let integer): return String(integer)
        case .double(let double): return doubleLiteral(double)
        case .decimal(let decimal): return "CAST(\(quoted(decimal.description)), \"NSDecimalNumber\")"
        case .string(let string): return quoted(string)
        case .date(let date): return "CAST(\(doubleLiteral(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .data(let data): return "CAST(\(quoted(data.base64EncodedString())), \"NSData\")"
        case .uuid(let uuid): return "CAST(\(quoted(uuid.uuidString)), \"NSUUID\")"
        case .uri(let url): return "CAST(\(quoted(url.absoluteString)), \"NSURL\")"
        case .collection(let members): return "{" + members.map(literal).joined(separator: ", ") + "}"
        }
    }

    private static func doubleLiteral(_ double: Double) -> String {
        guard double.isFinite else {
            // No literal for these; a string CAST keeps the description parseable.
            return "CAST(\(quoted(double.description)), \"NSNumber\")"
        }
        let text = double.description
        if text.contains(".") || text.contains("e") { return text }
        return text + ".0"
    }

    static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += "\\u" + String(format: "%04X", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
