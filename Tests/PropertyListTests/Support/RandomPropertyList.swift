import Foundation
import OrderedCollections
@testable import PropertyList
import TestSupport

/// Random property-list values for round-trip properties.
struct RandomPropertyList {
    /// What the target format can hold exactly.
    struct Profile {
        var floats = true          // single-precision reals survive
        var subsecondDates = true  // dates keep fractions of a second
        var uids = true
        var controlCharacters = true
        var nonFiniteReals = true
        var dates = true
        var data = true
        var integers = true
        var booleans = true
        var unsignedAboveInt64 = true

        static let binary = Profile()
        static let xml = Profile(floats: false, subsecondDates: false, controlCharacters: false)
        /// What Python's plistlib keeps: dates to the microsecond only, years 1-9999.
        static let plistlibBinary = Profile(subsecondDates: false)
        /// JSON has no dates, data or non-finite numbers (they become strings or errors).
        static let json = Profile(floats: false, nonFiniteReals: false, dates: false, data: false)
        /// biplist also cannot write integers above Int64.max.
        static let biplist = Profile(subsecondDates: false, unsignedAboveInt64: false)
    }

    var generator: SeededGenerator
    var profile: Profile
    var maximumDepth = 4

    init(seed: UInt64, profile: Profile) {
        generator = SeededGenerator(seed: seed)
        self.profile = profile
    }

    static let words = ["Possessions", "café", "naïve", "日本語", "🙂", "𝄞 clef", "<tag> & 'quote' \"dq\"",
                        "", " spaced ", "line\nbreak", "tab\there", "CF$UID", "$null", "a.b.c", "Ünïcödé", "ß"]

    mutating func string() -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            text += Self.words.randomElement(using: &generator) ?? ""
        }
        if profile.controlCharacters, Int.random(in: 0..<8, using: &generator) == 0 { text += "\u{1}\r\u{7F}" }
        if Int.random(in: 0..<6, using: &generator) == 0 {
            text += String(repeating: "x", count: Int.random(in: 14...300, using: &generator))
        }
        return text
    }

    mutating func scalar() -> PropertyListValue {
        while true {
            switch Int.random(in: 0..<9, using: &generator) {
            case 0: return .string(string())
            case 1 where profile.integers:
                switch Int.random(in: 0..<5, using: &generator) {
                case 0 where profile.unsignedAboveInt64: return .integer(PropertyListInteger(UInt64.random(in: .min ... .max, using: &generator)))
                case 1: return .integer(PropertyListInteger(Int64.random(in: .min ... .max, using: &generator)))
                case 2: return .integer(PropertyListInteger(Int64.random(in: -300...300, using: &generator)))
                case 3: return .integer([PropertyListInteger(Int64.min), PropertyListInteger(profile.unsignedAboveInt64 ? UInt64.max : 7), 0, -1, 255, 256, 65_535, 65_536]
                    .randomElement(using: &generator) ?? 0)
                default: return .integer(PropertyListInteger(Int64.random(in: -(1 << 40) ... (1 << 40), using: &generator)))
                }
            case 2:
                let specials: [Double] = profile.nonFiniteReals ? [.nan, .infinity, -.infinity, -0.0, 0.1, 1e300, 5e-324] : [-0.0, 0.1, 1e300, 5e-324]
                if Int.random(in: 0..<4, using: &generator) == 0 { return .real(specials.randomElement(using: &generator) ?? 0) }
                return .real(Double.random(in: -1e9...1e9, using: &generator))
            case 3 where profile.floats: return .float(Float.random(in: -1e6...1e6, using: &generator))
            case 4 where profile.booleans: return .bool(Bool.random(using: &generator))
            case 5 where profile.dates:
                var seconds = Double.random(in: -62_000_000_000...200_000_000_000, using: &generator)
                if !profile.subsecondDates { seconds.round(.down) }
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            case 6 where profile.data:
                return .data(Data((0..<Int.random(in: 0...100, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            case 7 where profile.uids: return .uid(PropertyListUID(UInt64.random(in: 0...UInt64(UInt32.max), using: &generator)))
            case 8: return .string(string())
            default: continue
            }
        }
    }

    /// A dictionary root and an array root of `count` random children each,
    /// for the paths that split a root's children between two threads.
    mutating func splittableRoots(count: Int) -> [PropertyListValue] {
        var entries = OrderedDictionary<String, PropertyListValue>()
        var elements: [PropertyListValue] = []
        for index in 0..<count {
            entries["\(string()) \(index)"] = value()
            elements.append(value())
        }
        return [.dictionary(entries), .array(elements)]
    }

    mutating func value(depth: Int = 0) -> PropertyListValue {
        let roll = Int.random(in: 0..<10, using: &generator)
        if depth >= maximumDepth || roll < 5 { return scalar() }
        let count = Int.random(in: 0...(roll == 9 ? 20 : 6), using: &generator)
        if roll < 7 {
            return .array((0..<count).map { _ in value(depth: depth + 1) })
        }
        var entries = OrderedDictionary<String, PropertyListValue>()
        for _ in 0..<count { entries[string()] = value(depth: depth + 1) }
        return .dictionary(entries)
    }
}

extension PropertyListValue {
    /// This value as a reader of a format without single-precision reals or
    /// sub-second dates gives it back.
    func normalizedForXML() -> PropertyListValue {
        normalized(floorsDates: true, readsUIDDictionaries: true)
    }

    /// This value with single-precision reals widened (as writers that only
    /// write doubles give them back) and, optionally, dates floored and
    /// `{CF$UID = n}` dictionaries read as UIDs.
    func normalized(floorsDates: Bool, readsUIDDictionaries: Bool) -> PropertyListValue {
        switch self {
        case .float(let real):
            return .real(Double(real))
        case .date(let date) where floorsDates:
            return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .array(let elements):
            return .array(elements.map { $0.normalized(floorsDates: floorsDates, readsUIDDictionaries: readsUIDDictionaries) })
        case .dictionary(let entries):
            // XML spells a UID as {CF$UID = n}, so such a dictionary reads back as a UID.
            if readsUIDDictionaries, entries.count == 1, let number = entries["CF$UID"]?.integerValue?.uint64Value {
                return .uid(PropertyListUID(number))
            }
            return .dictionary(entries.mapValues { $0.normalized(floorsDates: floorsDates, readsUIDDictionaries: readsUIDDictionaries) })
        default:
            return self
        }
    }

    /// Equality that treats NaN as equal to NaN, as bit-exact formats do.
    func isIdentical(to other: PropertyListValue) -> Bool {
        switch (self, other) {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.isIdentical(to: $1.value) }
        default: self == other
        }
    }
}

extension PropertyListValue {
    /// The key path of the first place where the two values differ, for
    /// readable failure messages.
    func firstDifference(from other: PropertyListValue, path: String = "") -> String? {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) vs \(b.count) elements" }
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let found = x.firstDifference(from: y, path: "\(path).\(index)") { return found }
            }
            return nil
        case (.dictionary(let a), .dictionary(let b)):
            guard Array(a.keys) == Array(b.keys) else { return "\(path): keys \(Array(a.keys)) vs \(Array(b.keys))" }
            for ((key, x), y) in zip(a, b.values) {
                if let found = x.firstDifference(from: y, path: "\(path).\(key)") { return found }
            }
            return nil
        default:
            return isIdentical(to: other) ? nil : "\(path): \(self) vs \(other)"
        }
    }
}
