import Foundation

/// Why a primitive could not be converted; the coders turn it into an
/// `EncodingError` or `DecodingError` with the coding path, which only they know.
enum PrimitiveFailure: Error {
    /// The value has another property-list type.
    case typeMismatch
    /// The value is a number that does not fit the requested type exactly.
    case notRepresentable
    /// The value has the right type but unusable content.
    case invalid(String)
}

/// A type that the property-list coders store directly as a
/// ``PropertyListValue`` instead of calling its `Codable` methods.
///
/// One protocol for both directions keeps the list of native types in one
/// place, and one dynamic cast per generic value finds them.
protocol PropertyListPrimitive {
    /// This value as a property-list value.
    func boxed() throws(PrimitiveFailure) -> PropertyListValue
    /// A value of this type read from `value`.
    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> Self
}

extension String: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .string(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> String {
        guard case .string(let string) = value else { throw .typeMismatch }
        return string
    }
}

extension Bool: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .bool(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> Bool {
        // Strict, as Foundation is: 0 and 1 are numbers, not Booleans.
        guard case .bool(let bool) = value else { throw .typeMismatch }
        return bool
    }
}

extension Double: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .real(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> Double {
        switch value {
        case .real(let real): return real
        case .float(let float): return Double(float)
        case .integer(let integer):
            guard let real = integer.real(exactlyAs: Double.self) else { throw .notRepresentable }
            return real
        default: throw .typeMismatch
        }
    }
}

extension Float: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .float(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> Float {
        switch value {
        case .float(let float): return float
        case .real(let real):
            // Rounding is allowed: XML and OpenStep store every real as
            // decimal text read back as a Double, so a Float written there
            // comes back only as the nearest Double. Overflow is not.
            let float = Float(real)
            guard float.isFinite || !real.isFinite else { throw .notRepresentable }
            return float
        case .integer(let integer):
            guard let float = integer.real(exactlyAs: Float.self) else { throw .notRepresentable }
            return float
        default: throw .typeMismatch
        }
    }
}

extension Date: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .date(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> Date {
        guard case .date(let date) = value else { throw .typeMismatch }
        return date
    }
}

extension Data: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .data(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> Data {
        guard case .data(let data) = value else { throw .typeMismatch }
        return data
    }
}

extension URL: PropertyListPrimitive {
    /// A URL is its absolute string, as Foundation's `PropertyListEncoder` writes it.
    func boxed() -> PropertyListValue { .string(absoluteString) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> URL {
        guard case .string(let string) = value else { throw .typeMismatch }
        guard let url = URL(string: string) else { throw .invalid("Invalid URL string \"\(string)\".") }
        return url
    }
}

extension PropertyListValue: PropertyListPrimitive {
    func boxed() -> PropertyListValue { self }

    static func unbox(_ value: PropertyListValue) -> PropertyListValue { value }
}

extension PropertyListUID: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .uid(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> PropertyListUID {
        switch value {
        case .uid(let uid):
            return uid
        case .dictionary(let entries) where entries.count == 1:
            // `{CF$UID = n}`, the form text formats spell a UID in.
            guard let reference = entries[PropertyListUID.codingKey] else { throw .typeMismatch }
            guard case .integer(let integer) = reference else { throw .typeMismatch }
            guard let index = integer.uint64Value else { throw .notRepresentable }
            return PropertyListUID(index)
        default:
            throw .typeMismatch
        }
    }
}

extension PropertyListInteger: PropertyListPrimitive {
    func boxed() -> PropertyListValue { .integer(self) }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> PropertyListInteger {
        let result: PropertyListInteger?
        switch value {
        case .integer(let integer): result = integer
        case .real(let real): result = PropertyListInteger(exactlyReal: real)
        case .float(let float): result = PropertyListInteger(exactlyReal: float)
        default: throw .typeMismatch
        }
        guard let result else { throw .notRepresentable }
        return result
    }
}

extension PropertyListInteger {
    /// The value as a floating-point number, or `nil` if it would round.
    func real<F: BinaryFloatingPoint>(exactlyAs type: F.Type) -> F? {
        isNegative ? F(exactly: Int64(bitPattern: bitPattern)) : F(exactly: bitPattern)
    }

    /// The integer a real number equals, or `nil` if it has a fraction or is out of range.
    init?<F: BinaryFloatingPoint>(exactlyReal real: F) {
        if let signed = Int64(exactly: real) {
            self.init(signed)
        } else if let unsigned = UInt64(exactly: real) {
            self.init(unsigned)
        } else {
            return nil
        }
    }
}

/// The integer types: stored as `.integer`, read from an integer that fits
/// or from a real with an exact integer value.
protocol PropertyListIntegerPrimitive: PropertyListPrimitive, FixedWidthInteger {}

extension PropertyListIntegerPrimitive {
    func boxed() throws(PrimitiveFailure) -> PropertyListValue {
        // Only 128-bit integers can be out of range.
        guard let integer = PropertyListInteger(exactly: self) else { throw .notRepresentable }
        return .integer(integer)
    }

    static func unbox(_ value: PropertyListValue) throws(PrimitiveFailure) -> Self {
        let result: Self?
        switch value {
        case .integer(let integer): result = integer.exactly(as: Self.self)
        case .real(let real): result = Self(exactly: real)
        case .float(let float): result = Self(exactly: float)
        default: throw .typeMismatch
        }
        guard let result else { throw .notRepresentable }
        return result
    }
}

extension Int: PropertyListIntegerPrimitive {}
extension Int8: PropertyListIntegerPrimitive {}
extension Int16: PropertyListIntegerPrimitive {}
extension Int32: PropertyListIntegerPrimitive {}
extension Int64: PropertyListIntegerPrimitive {}
extension UInt: PropertyListIntegerPrimitive {}
extension UInt8: PropertyListIntegerPrimitive {}
extension UInt16: PropertyListIntegerPrimitive {}
extension UInt32: PropertyListIntegerPrimitive {}
extension UInt64: PropertyListIntegerPrimitive {}
@available(macOS 15.0, iOS 18.0, *) extension Int128: PropertyListIntegerPrimitive {}
@available(macOS 15.0, iOS 18.0, *) extension UInt128: PropertyListIntegerPrimitive {}
