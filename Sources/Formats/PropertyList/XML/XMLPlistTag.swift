import FileSystem
import Foundation

/// The element names of the plist DTD, recognised from bytes without
/// building strings.
enum XMLPlistTag: Equatable {
    case plist, dict, key, array, string, integer, real, date, data, `true`, `false`
    /// An element the DTD does not define.
    case unknown

    var name: StaticString {
        switch self {
        case .plist: "plist"
        case .dict: "dict"
        case .key: "key"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .date: "date"
        case .data: "data"
        case .true: "true"
        case .false: "false"
        case .unknown: "?"
        }
    }

    init(_ bytes: UnsafeRawBufferPointer) {
        func matches(_ literal: StaticString) -> Bool {
            guard literal.utf8CodeUnitCount == bytes.count, let base = bytes.baseAddress else { return false }
            return RawMemory.bytesEqual(literal.utf8Start, base, count: bytes.count)
        }
        switch (bytes.count, bytes.first ?? 0) {
        case (3, UInt8(ascii: "k")) where matches("key"): self = .key
        case (4, UInt8(ascii: "d")) where matches("dict"): self = .dict
        case (4, UInt8(ascii: "d")) where matches("date"): self = .date
        case (4, UInt8(ascii: "d")) where matches("data"): self = .data
        case (4, UInt8(ascii: "r")) where matches("real"): self = .real
        case (4, UInt8(ascii: "t")) where matches("true"): self = .true
        case (5, UInt8(ascii: "a")) where matches("array"): self = .array
        case (5, UInt8(ascii: "p")) where matches("plist"): self = .plist
        case (5, UInt8(ascii: "f")) where matches("false"): self = .false
        case (6, UInt8(ascii: "s")) where matches("string"): self = .string
        case (7, UInt8(ascii: "i")) where matches("integer"): self = .integer
        default: self = .unknown
        }
    }
}
