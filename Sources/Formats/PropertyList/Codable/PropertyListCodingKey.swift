/// The coding key the property-list coders make themselves: array indices
/// in coding paths, `super`, and the keys of dictionaries decoded as
/// ``PropertyListValue``.
struct PropertyListCodingKey: CodingKey, Hashable, Sendable {
    private let name: String?
    let intValue: Int?

    init(stringValue: String) {
        name = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        name = nil
        self.intValue = intValue
    }

    /// An index key's name is made only when asked for: most paths are
    /// built for an error that never happens.
    var stringValue: String { name ?? "Index \(intValue ?? 0)" }

    /// The key `superEncoder()` and `superDecoder()` use, as Foundation's coders do.
    static let `super` = PropertyListCodingKey(stringValue: "super")

    /// The key of element `index` of an unkeyed container.
    static func index(_ index: Int) -> PropertyListCodingKey { PropertyListCodingKey(intValue: index) }
}

/// The string Foundation's `PropertyListEncoder` writes for `nil` where it
/// cannot leave a value out; read back as `nil` for compatibility with
/// property lists it wrote.
let propertyListNullMarker = "$null"

extension PropertyListValue {
    /// Whether this is Foundation's `$null` marker string.
    var isNullMarker: Bool {
        if case .string(let string) = self { return string == propertyListNullMarker }
        return false
    }
}
