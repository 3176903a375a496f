import Foundation

/// A value that can stand for a `%@`, `%K`, `%d` or `%f` in a format.
///
/// `%K` takes a string (the key path), `%d`/`%i`/`%ld` an integer,
/// `%f`/`%lf` a number, `%@` anything.
public protocol FormatArgumentConvertible {
    var formatArgumentValue: AttributeValue { get }
}

extension AttributeValue: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { self }
}
extension String: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .string(self) }
}
extension Substring: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .string(String(self)) }
}
extension Int: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .integer(Int64(self)) }
}
extension Int64: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .integer(self) }
}
extension Int32: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .integer(Int64(self)) }
}
extension Int16: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .integer(Int64(self)) }
}
extension Double: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .double(self) }
}
extension Float: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .double(Double(self)) }
}
extension Bool: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .bool(self) }
}
extension Decimal: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .decimal(self) }
}
extension Date: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .date(self) }
}
extension Data: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .data(self) }
}
extension UUID: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .uuid(self) }
}
extension URL: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .uri(self) }
}
extension Optional: FormatArgumentConvertible where Wrapped: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { self?.formatArgumentValue ?? .null }
}
extension Array: FormatArgumentConvertible where Element: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .collection(map(\.formatArgumentValue)) }
}
extension Set: FormatArgumentConvertible where Element: FormatArgumentConvertible {
    public var formatArgumentValue: AttributeValue { .collection(map(\.formatArgumentValue)) }
}
