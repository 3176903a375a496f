import KeyedArchive
import OrderedCollections
import PropertyList

/// A canonical text form of a generic graph for comparisons: objects are
/// numbered in first-visit order, so two graphs with the same shape and
/// sharing render the same whatever their `$objects` numbering.
enum GraphText {
    static func render(_ top: OrderedDictionary<String, ArchivedValue>) -> String {
        var numbers: [ObjectIdentifier: Int] = [:]
        return top.map { "\($0.key)=\(render($0.value, &numbers))" }.joined(separator: ";")
    }

    static func render(_ value: ArchivedValue, _ numbers: inout [ObjectIdentifier: Int]) -> String {
        switch value {
        case .null: return "nil"
        case .scalar(let plain): return "\(plain)"
        case .array(let elements): return "[" + elements.map { render($0, &numbers) }.joined(separator: ",") + "]"
        case .dictionary(let entries): return "{" + entries.map { "\($0.key):\(render($0.value, &numbers))" }.joined(separator: ",") + "}"
        case .object(let object):
            if let inline = object.inlineValue { return "'\(inline)'" }
            if let number = numbers[ObjectIdentifier(object)] { return "#\(number)" }
            let number = numbers.count
            numbers[ObjectIdentifier(object)] = number
            let fields = object.fields.map { "\($0.key):\(render($0.value, &numbers))" }
            let unkeyed = object.unkeyed.map { render($0, &numbers) }
            return "#\(number)<\(object.archiveClass?.description ?? "?")>{" + (fields + unkeyed).joined(separator: ",") + "}"
        }
    }
}
