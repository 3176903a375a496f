/// A keyed-archive object reference: an index into an archive's `$objects`.
///
/// Binary files store it with marker `0x8n`; XML files as a one-entry
/// dictionary `{CF$UID = n}`, which the XML reader turns back into a UID.
public struct PropertyListUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The referenced index.
    public var value: UInt64

    /// Creates a reference to `value`.
    public init(_ value: UInt64) { self.value = value }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }

    public var description: String { "UID(\(value))" }
}
