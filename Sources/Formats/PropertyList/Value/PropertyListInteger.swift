/// An integer in the full range property lists can hold: −2⁶³ … 2⁶⁴−1.
///
/// Apple's binary format stores values above `Int64.max` as 16-byte
/// integers; this type keeps them exact without a 128-bit payload.
public struct PropertyListInteger: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The two's-complement bit pattern. Read together with `isNegative`.
    public let bitPattern: UInt64
    /// Whether the value is below zero (then `bitPattern` is an `Int64`'s).
    public let isNegative: Bool

    /// Creates a signed value.
    public init(_ value: Int64) {
        bitPattern = UInt64(bitPattern: value)
        isNegative = value < 0
    }

    /// Creates a non-negative value, up to `UInt64.max`.
    public init(_ value: UInt64) {
        bitPattern = value
        isNegative = false
    }

    /// Creates a value from any integer, or `nil` if it is out of range.
    public init?<T: BinaryInteger>(exactly value: T) {
        if value < 0 {
            guard let signed = Int64(exactly: value) else { return nil }
            self.init(signed)
        } else {
            guard let unsigned = UInt64(exactly: value) else { return nil }
            self.init(unsigned)
        }
    }

    /// The value as `Int64`, or `nil` if it is above `Int64.max`.
    public var int64Value: Int64? {
        if isNegative || bitPattern <= UInt64(Int64.max) { return Int64(bitPattern: bitPattern) }
        return nil
    }

    /// The value as `UInt64`, or `nil` if it is negative.
    public var uint64Value: UInt64? { isNegative ? nil : bitPattern }

    /// Whether Apple's binary format needs its 16-byte form for this value.
    public var needsSixteenBytes: Bool { !isNegative && bitPattern > UInt64(Int64.max) }

    /// The value converted to `T`, or `nil` if it does not fit.
    public func exactly<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? {
        isNegative ? T(exactly: Int64(bitPattern: bitPattern)) : T(exactly: bitPattern)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.isNegative, rhs.isNegative) {
        case (true, false): return true
        case (false, true): return false
        case (true, true): return Int64(bitPattern: lhs.bitPattern) < Int64(bitPattern: rhs.bitPattern)
        case (false, false): return lhs.bitPattern < rhs.bitPattern
        }
    }

    public var description: String {
        isNegative ? String(Int64(bitPattern: bitPattern)) : String(bitPattern)
    }
}

extension PropertyListInteger: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self.init(value) }
}
