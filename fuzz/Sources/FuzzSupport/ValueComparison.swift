import Foundation
import PropertyList

/// How closely a value read back must match the value written.
enum ValueComparison {
    /// Identical, down to the bits of every real and date: what the binary
    /// format promises.
    case exact
    /// Equal after the losses XML documents: single-precision reals come
    /// back as doubles, dates lose their fractional seconds, every NaN reads
    /// back as the same NaN, and a one-entry `{CF$UID: n}` dictionary
    /// becomes a UID.
    case xmlText

    func matches(_ written: PropertyListValue, _ read: PropertyListValue) -> Bool {
        let written = normalized(written), read = normalized(read)
        switch (written, read) {
        case (.real(let lhs), .real(let rhs)):
            return lhs.bitPattern == rhs.bitPattern || (self == .xmlText && lhs.isNaN && rhs.isNaN)
        case (.float(let lhs), .float(let rhs)):
            return lhs.bitPattern == rhs.bitPattern
        case (.date(let lhs), .date(let rhs)):
            let lhs = lhs.timeIntervalSinceReferenceDate, rhs = rhs.timeIntervalSinceReferenceDate
            return self == .exact ? lhs.bitPattern == rhs.bitPattern : lhs == rhs
        case (.array(let lhs), .array(let rhs)):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { matches($0, $1) }
        case (.dictionary(let lhs), .dictionary(let rhs)):
            return lhs.keys.elementsEqual(rhs.keys) && zip(lhs.values, rhs.values).allSatisfy { matches($0, $1) }
        default:
            return written == read
        }
    }

    /// `value` with this comparison's accepted losses applied at its top level.
    private func normalized(_ value: PropertyListValue) -> PropertyListValue {
        guard self == .xmlText else { return value }
        switch value {
        case .float(let real):
            return .real(Double(real))
        case .date(let date):
            return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .dictionary(let entries) where entries.count == 1:
            if case .integer(let number)? = entries["CF$UID"], let reference = number.uint64Value {
                return .uid(PropertyListUID(reference))
            }
            return value
        default:
            return value
        }
    }
}
