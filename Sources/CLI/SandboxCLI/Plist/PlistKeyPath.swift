/// A path to a value inside a property list, spelt as `plutil` spells it:
/// dictionary keys joined by dots, where a component that is a decimal
/// number indexes an array (`items.0.name`).
///
/// `\.` stands for a dot inside a key (`com\.example\.app.Enabled` is two
/// components) and `\\` for a backslash; any other backslash is kept as is.
/// Components may be empty, because `""` is a legal dictionary key: `a..b`
/// is `a`, `""`, `b`. There is no spelling for the root itself.
struct PlistKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The keys and indices, outermost first.
    var components: [String]

    /// Creates a path from unescaped components.
    init(components: [String]) {
        self.components = components
    }

    /// Splits `text` on unescaped dots.
    init(parsing text: String) {
        var components: [String] = []
        var current = String.UnicodeScalarView()
        var escaping = false
        // Scalars, not Characters: a backslash followed by a combining mark is
        // one Character but must still read as an escape.
        for scalar in text.unicodeScalars {
            if escaping {
                escaping = false
                if scalar != "." && scalar != "\\" { current.append("\\") }
                current.append(scalar)
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "." {
                components.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if escaping { current.append("\\") }
        components.append(String(current))
        self.components = components
    }

    /// The path spelt back with escapes, as the user would type it.
    var description: String {
        components.map { component in
            var escaped = ""
            for scalar in component.unicodeScalars {
                if scalar == "." || scalar == "\\" { escaped.unicodeScalars.append("\\") }
                escaped.unicodeScalars.append(scalar)
            }
            return escaped
        }.joined(separator: ".")
    }

    /// The array index a component names: ASCII digits only, so `+1`, `-1`
    /// and ` 1` are keys, never indices.
    static func index(_ component: String) -> Int? {
        guard !component.isEmpty, component.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(component)
    }
}
