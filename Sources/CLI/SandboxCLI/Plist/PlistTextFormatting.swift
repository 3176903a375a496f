import Foundation
import OrderedCollections

/// Small text conventions shared by `-p` and `-extract … raw`.
enum PlistTextFormatting {
    /// Dictionary keys in the order `plutil` lists them: case-insensitive,
    /// with digit runs compared as numbers (`item2` before `item10`), and ties
    /// broken so the order is total.
    static func sortedEntries<Value>(_ entries: OrderedDictionary<String, Value>) -> [(key: String, value: Value)] {
        entries.elements.sorted { lhs, rhs in
            lhs.key.compare(rhs.key, options: [.numeric, .caseInsensitive, .forcedOrdering]) == .orderedAscending
        }
    }

    /// A real as people write it: whole numbers without a fraction (`3`, as
    /// `NSNumber` prints them), anything else in the shortest form that reads
    /// back to the same value (`0.1`, `1e-300`, `inf`, `nan`).
    static func number<Real: BinaryFloatingPoint & CustomStringConvertible>(_ value: Real) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }
}
