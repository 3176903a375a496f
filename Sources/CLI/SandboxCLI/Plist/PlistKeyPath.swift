import OrderedCollections
import PropertyList

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

/// A change made at the end of a ``PlistKeyPath``, with `plutil`'s rules.
enum PlistEdit: Hashable, Sendable {
    /// Adds a value where none is. In a dictionary the key must be new; in an
    /// array the value is inserted before the index (the count appends).
    case insert(PropertyListValue)
    /// Appends to the array the path names. If a dictionary has no such key,
    /// the value is stored there as it is (plutil does the same).
    case append(PropertyListValue)
    /// Sets a value whether or not one is there; an array index equal to the
    /// count appends.
    case replace(PropertyListValue)
    /// Removes the value, which must exist.
    case remove
}

extension PropertyListValue {
    /// The value `path` leads to.
    func value(at path: PlistKeyPath) throws(PlistCommandError) -> PropertyListValue {
        var current = self
        for component in path.components {
            switch current {
            case .dictionary(let entries):
                guard let next = entries[component] else { throw .noValue(at: path) }
                current = next
            case .array(let elements):
                guard let index = PlistKeyPath.index(component), elements.indices.contains(index) else {
                    throw .noValue(at: path)
                }
                current = elements[index]
            default:
                throw .noValue(at: path)
            }
        }
        return current
    }

    /// This value with `edit` made at `path`.
    func applying(_ edit: PlistEdit, at path: PlistKeyPath) throws(PlistCommandError) -> PropertyListValue {
        guard !path.components.isEmpty else { throw PlistCommandError("the key path is empty") }
        return try applying(edit, at: path, depth: 0)
    }

    private func applying(_ edit: PlistEdit, at path: PlistKeyPath, depth: Int) throws(PlistCommandError) -> PropertyListValue {
        let component = path.components[depth]
        let isLast = depth == path.components.count - 1
        switch self {
        case .dictionary(var entries):
            if isLast {
                try Self.apply(edit, key: component, in: &entries, path: path)
            } else {
                guard let child = entries[component] else { throw .noValue(at: path) }
                entries[component] = try child.applying(edit, at: path, depth: depth + 1)
            }
            return .dictionary(entries)
        case .array(var elements):
            guard let index = PlistKeyPath.index(component) else {
                throw PlistCommandError("key path \(path): '\(component)' is not an array index")
            }
            if isLast {
                try Self.apply(edit, index: index, in: &elements, path: path)
            } else {
                guard elements.indices.contains(index) else { throw .noValue(at: path) }
                elements[index] = try elements[index].applying(edit, at: path, depth: depth + 1)
            }
            return .array(elements)
        default:
            let parent = PlistKeyPath(components: Array(path.components[..<depth]))
            let place = depth == 0 ? "the root" : "key path \(parent)"
            throw PlistCommandError("key path \(path): \(place) is \(PlistTypeName(of: self).withArticle), not a dictionary or array")
        }
    }

    private static func apply(_ edit: PlistEdit, key: String, in entries: inout OrderedDictionary<String, PropertyListValue>, path: PlistKeyPath) throws(PlistCommandError) {
        switch edit {
        case .insert(let value):
            guard entries[key] == nil else { throw PlistCommandError("a value already exists at key path \(path)") }
            entries[key] = value
        case .append(let value):
            switch entries[key] {
            case nil: entries[key] = value
            case .array(var elements)?:
                elements.append(value)
                entries[key] = .array(elements)
            case let other?: throw notAnArray(other, at: path)
            }
        case .replace(let value):
            entries[key] = value
        case .remove:
            guard entries.removeValue(forKey: key) != nil else { throw .noValue(at: path) }
        }
    }

    private static func apply(_ edit: PlistEdit, index: Int, in elements: inout [PropertyListValue], path: PlistKeyPath) throws(PlistCommandError) {
        switch edit {
        case .insert(let value):
            guard index <= elements.count else { throw outOfRange(index, elements.count, at: path) }
            elements.insert(value, at: index)
        case .append(let value):
            guard elements.indices.contains(index) else { throw .noValue(at: path) }
            guard case .array(var inner) = elements[index] else { throw notAnArray(elements[index], at: path) }
            inner.append(value)
            elements[index] = .array(inner)
        case .replace(let value):
            if index == elements.count {
                elements.append(value)
            } else {
                guard index < elements.count else { throw outOfRange(index, elements.count, at: path) }
                elements[index] = value
            }
        case .remove:
            guard elements.indices.contains(index) else { throw .noValue(at: path) }
            elements.remove(at: index)
        }
    }

    private static func notAnArray(_ value: PropertyListValue, at path: PlistKeyPath) -> PlistCommandError {
        PlistCommandError("cannot append: the value at key path \(path) is \(PlistTypeName(of: value).withArticle), not an array")
    }

    private static func outOfRange(_ index: Int, _ count: Int, at path: PlistKeyPath) -> PlistCommandError {
        PlistCommandError("key path \(path): index \(index) is beyond the end of an array of \(count)")
    }
}
