import Foundation
import PropertyList

/// What a Foundation object in an archive holds, as Swift values; elements
/// stay ``ArchivedValue``s so shared objects and cycles are kept.
public enum ArchivedFoundationValue: Hashable {
    /// NSString, NSMutableString or an inline string.
    case string(String)
    /// NSNumber or an inline integer, real or Boolean (kept apart: `true` ≠ `1` ≠ `1.0`).
    case number(PropertyListValue)
    /// NSData, NSMutableData or inline data.
    case data(Data)
    /// NSDate.
    case date(Date)
    /// NSArray or NSMutableArray.
    case array([ArchivedValue])
    /// NSSet or NSMutableSet, in stored order.
    case set([ArchivedValue])
    /// NSOrderedSet or NSMutableOrderedSet.
    case orderedSet([ArchivedValue])
    /// NSCountedSet: each distinct element and its count.
    case countedSet([CountedElement])
    /// NSDictionary or NSMutableDictionary, in stored order.
    case dictionary([Entry])
    /// NSUUID.
    case uuid(UUID)
    /// NSURL.
    case url(URL)
    /// NSNull.
    case null
    /// NSValue holding a point, size, rect, range or edge insets.
    case special(KeyedArchiveSpecialValue)

    /// A dictionary entry.
    public struct Entry: Hashable {
        /// The key.
        public var key: ArchivedValue
        /// The value.
        public var value: ArchivedValue
    }

    /// A counted-set element.
    public struct CountedElement: Hashable {
        /// The element.
        public var element: ArchivedValue
        /// How many times it was added.
        public var count: Int
    }

    init?(inline value: PropertyListValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer, .real, .float, .bool: self = .number(value)
        case .data(let bytes): self = .data(bytes)
        case .date(let date): self = .date(date)
        default: return nil
        }
    }

    /// The text, if this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
