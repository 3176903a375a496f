import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList

/// The JSON of `sandbox archive json`, built as a property-list value and
/// written by ``JSONOutput`` (see ``ArchiveCommand`` for the layout).
struct ArchiveJSON {
    /// Deeper levels are cut off, so a hostile chain cannot exhaust the stack.
    static let maximumDepth = 200

    /// The most JSON values built: shared plain values are written out at
    /// each use, so a few hundred bytes could otherwise become gigabytes.
    static let maximumValueCount = 1 << 21

    private var emitted: Set<ObjectIdentifier> = []
    private var valueCount = 0

    static func render(_ unarchiver: KeyedUnarchiver, raw: Bool) throws -> Data {
        let value: PropertyListValue
        if raw {
            value = safe(unarchiver.table.propertyList, depth: 0)
        } else {
            var builder = ArchiveJSON()
            var top = OrderedDictionary<String, PropertyListValue>()
            for (key, entry) in try unarchiver.decodeTopLevelGraph() {
                top[key] = builder.json(entry, depth: 0)
                if builder.valueCount > maximumValueCount { break }
            }
            guard builder.valueCount <= maximumValueCount else {
                throw ArchiveOutputTooLarge(limit: maximumValueCount, unit: "values")
            }
            value = .dictionary(["top": .dictionary(top)])
        }
        return try JSONOutput.encode(value, maximumDepth: 4 * maximumDepth + 16)
    }

    private mutating func json(_ value: ArchivedValue, depth: Int) -> PropertyListValue {
        valueCount += 1
        guard valueCount <= Self.maximumValueCount else { return .dictionary(["$truncated": true]) }
        guard depth < Self.maximumDepth else { return .dictionary(["$truncated": true]) }
        switch value {
        case .null: return .dictionary(["$null": true])
        case .scalar(let plain): return Self.safe(plain, depth: depth)
        case .array(let elements): return .array(elements.map { json($0, depth: depth + 1) })
        case .dictionary(let entries): return .dictionary(entries.mapValues { json($0, depth: depth + 1) })
        case .object(let object): return json(object, depth: depth)
        }
    }

    private mutating func json(_ object: ArchivedObject, depth: Int) -> PropertyListValue {
        guard let archiveClass = object.archiveClass else { return Self.safe(object.inlineValue ?? .string(""), depth: depth) }
        let id = Int64(object.archiveIndex ?? -1)
        guard emitted.insert(ObjectIdentifier(object)).inserted else {
            return .dictionary(["$ref": .integer(PropertyListInteger(id))])
        }
        var result: OrderedDictionary<String, PropertyListValue> = [
            "$id": .integer(PropertyListInteger(id)),
            "$class": .string(archiveClass.name),
            "$classes": .array(archiveClass.classes.map { .string($0) }),
        ]
        let child = depth + 1
        switch object.foundationValue {
        case .string(let text)?: result["$value"] = .string(text)
        case .number(let number)?: result["$value"] = Self.safe(number, depth: depth)
        case .data(let bytes)?: result["$value"] = Self.safe(.data(bytes), depth: depth)
        case .date(let date)?: result["$value"] = Self.safe(.date(date), depth: depth)
        case .uuid(let uuid)?: result["$value"] = .string(uuid.uuidString)
        case .url(let url)?: result["$value"] = .string(url.absoluteString)
        case .null?: result["$value"] = .dictionary(["$null": true])
        case .special(let special)?: result["$value"] = .string("\(special)")
        case .array(let elements)?, .set(let elements)?, .orderedSet(let elements)?:
            result["$value"] = .array(elements.map { json($0, depth: child) })
        case .countedSet(let entries)?:
            result["$value"] = .array(entries.map { .array([json($0.element, depth: child), .integer(PropertyListInteger(Int64($0.count)))]) })
        case .dictionary(let entries)?:
            result["$value"] = .array(entries.map { .array([json($0.key, depth: child), json($0.value, depth: child)]) })
        case nil:
            result["fields"] = .dictionary(object.fields.mapValues { json($0, depth: child) })
            if !object.unkeyed.isEmpty { result["unkeyed"] = .array(object.unkeyed.map { json($0, depth: child) }) }
        }
        return .dictionary(result)
    }

    /// `value` with what JSON cannot hold tagged: data and dates (which would
    /// otherwise read as strings) and non-finite reals.
    static func safe(_ value: PropertyListValue, depth: Int) -> PropertyListValue {
        var converted: [UnsafeRawPointer: PropertyListValue] = [:]
        return safe(value, depth: depth, memo: &converted)
    }

    /// A plain array or dictionary shared by several parents is converted
    /// once and stays shared, so a "bomb" in `$objects` does not expand
    /// here (the JSON writer's output limit then refuses it).
    private static func safe(_ value: PropertyListValue, depth: Int,
                             memo: inout [UnsafeRawPointer: PropertyListValue]) -> PropertyListValue {
        guard depth < 4 * maximumDepth else { return .dictionary(["$truncated": true]) }
        switch value {
        case .array(let elements):
            let identity = SharedStorage.identity(of: elements)
            if let identity, let done = memo[identity] { return done }
            let result = PropertyListValue.array(elements.map { safe($0, depth: depth + 1, memo: &memo) })
            if let identity { memo[identity] = result }
            return result
        case .dictionary(let entries):
            let identity = SharedStorage.identity(of: entries)
            if let identity, let done = memo[identity] { return done }
            let result = PropertyListValue.dictionary(entries.mapValues { safe($0, depth: depth + 1, memo: &memo) })
            if let identity { memo[identity] = result }
            return result
        case .data(let bytes): return .dictionary(["$data": .string(bytes.base64EncodedString())])
        case .date(let date):
            return .dictionary(["$date": .string(PropertyListDateFormat.iso8601(date) ?? "\(date.timeIntervalSinceReferenceDate)")])
        case .real(let real) where !real.isFinite: return .dictionary(["$real": .string(real.description)])
        case .float(let real) where !real.isFinite: return .dictionary(["$real": .string(real.description)])
        default: return value
        }
    }
}
