import Foundation
import KeyedArchive
import PropertyList

/// The text of `sandbox archive print`: one line per value, children
/// indented by two spaces; shared objects numbered, repeats and cycles marked.
struct ArchiveTreePrinter {
    let unarchiver: KeyedUnarchiver
    /// Deeper levels are elided, so a hostile chain cannot exhaust the stack.
    static let maximumDepth = 200

    /// The most text printed: a few hundred bytes of shared plain values
    /// could otherwise print gigabytes (each repeat is printed). 2 Mi lines
    /// is more than an archive of a hundred megabytes prints.
    static let maximumOutputSize = 1 << 27
    static let maximumLineCount = 1 << 21

    private var lines: [String] = []
    private var outputSize = 0
    private var overLimit = false
    private var printed: Set<ObjectIdentifier> = []
    private var ancestors: Set<ObjectIdentifier> = []
    private var counts = ArchiveReferenceCounts(roots: [])

    init(unarchiver: KeyedUnarchiver) { self.unarchiver = unarchiver }

    /// The tree's text; an archive that cannot be read, or whose text
    /// would pass ``maximumOutputSize`` or ``maximumLineCount``, throws (and
    /// prints nothing).
    mutating func render() throws -> String {
        let top = try unarchiver.decodeTopLevelGraph()
        counts = ArchiveReferenceCounts(roots: top.values)
        for (key, value) in top where !overLimit { line(key, value, depth: 0) }
        guard !overLimit else {
            throw ArchiveOutputTooLarge(limit: Self.maximumOutputSize, unit: "bytes or \(Self.maximumLineCount) lines")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Adds a line, or notes that the limits are passed and stops adding.
    private mutating func append(_ text: String) {
        guard !overLimit else { return }
        outputSize += text.utf8.count + 1
        if outputSize > Self.maximumOutputSize || lines.count >= Self.maximumLineCount {
            overLimit = true
            return
        }
        lines.append(text)
    }

    private mutating func line(_ label: String, _ value: ArchivedValue, depth: Int) {
        guard !overLimit else { return }
        let indent = String(repeating: "  ", count: depth)
        guard depth < Self.maximumDepth else {
            append("\(indent)\(label): … (deeper levels not shown)")
            return
        }
        switch value {
        case .null:
            append("\(indent)\(label): nil")
        case .scalar(let plain):
            append("\(indent)\(label): \(Self.describe(plain))")
        case .array(let elements):
            append("\(indent)\(label): (\(elements.count) plain elements)")
            for (index, element) in elements.enumerated() { line("[\(index)]", element, depth: depth + 1) }
        case .dictionary(let entries):
            append("\(indent)\(label): (\(entries.count) plain entries)")
            for (key, entry) in entries { line(key, entry, depth: depth + 1) }
        case .object(let object):
            printObject(label, object, indent: indent, depth: depth)
        }
    }

    private mutating func printObject(_ label: String, _ object: ArchivedObject, indent: String, depth: Int) {
        guard let archiveClass = object.archiveClass else {
            append("\(indent)\(label): \(object.inlineValue.map(Self.describe) ?? "?")")
            return
        }
        let id = ObjectIdentifier(object)
        let number = object.archiveIndex.map { "#\($0)" } ?? "#?"
        if ancestors.contains(id) {
            append("\(indent)\(label): -> \(number) (cycle)")
            return
        }
        if printed.contains(id) {
            append("\(indent)\(label): -> \(number) (shared)")
            return
        }
        printed.insert(id)
        let tag = counts.isShared(object) ? " \(number)" : ""
        let head = "\(indent)\(label): <\(archiveClass.name)>\(tag)"
        ancestors.insert(id)
        defer { ancestors.remove(id) }
        switch object.foundationValue {
        case .string(let text)?: append("\(head) \(Self.quote(text))")
        case .number(let number)?: append("\(head) \(Self.describe(number))")
        case .data(let bytes)?: append("\(head) \(Self.describe(.data(bytes)))")
        case .date(let date)?: append("\(head) \(Self.describe(.date(date)))")
        case .uuid(let uuid)?: append("\(head) \(uuid.uuidString)")
        case .url(let url)?: append("\(head) \(url.absoluteString)")
        case .null?: append("\(head)")
        case .special(let special)?: append("\(head) \(special)")
        case .array(let elements)?, .set(let elements)?, .orderedSet(let elements)?:
            append("\(head) (\(elements.count) elements)")
            for (index, element) in elements.enumerated() { line("[\(index)]", element, depth: depth + 1) }
        case .countedSet(let entries)?:
            append("\(head) (\(entries.count) distinct elements)")
            for (index, entry) in entries.enumerated() { line("[\(index)] ×\(entry.count)", entry.element, depth: depth + 1) }
        case .dictionary(let entries)?:
            append("\(head) (\(entries.count) entries)")
            for entry in entries {
                let key = entry.key.stringValue.map(Self.quote) ?? "key"
                line(key, entry.value, depth: depth + 1)
            }
        case nil:
            let chain = archiveClass.classes.count > 1 ? " (\(archiveClass.classes.dropFirst().joined(separator: " : ")))" : ""
            append(head + chain)
            for (key, field) in object.fields { line(key, field, depth: depth + 1) }
            for (index, field) in object.unkeyed.enumerated() { line("$\(index)", field, depth: depth + 1) }
        }
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return quote(text)
        case .integer(let integer): return integer.description
        // Reals keep their ".0" so that 1 and 1.0 read differently.
        case .real(let real): return real.description
        case .float(let real): return real.description
        case .bool(let flag): return flag ? "true" : "false"
        // With the fraction of a second, as the JSON writer keeps it.
        case .date(let date): return PropertyListDateFormat.iso8601(date) ?? DateText.readable(date)
        case .data(let bytes):
            let shown = bytes.prefix(32).map { String(format: "%02x", $0) }.joined()
            return "<\(bytes.count) bytes\(bytes.isEmpty ? "" : ": ")\(shown)\(bytes.count > 32 ? "…" : "")>"
        case .uid(let uid): return uid.description
        case .array(let elements): return "(\(elements.count) elements)"
        case .dictionary(let entries): return "(\(entries.count) entries)"
        }
    }
}
