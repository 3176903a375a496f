import Foundation

/// How a sort descriptor compares strings (other values compare as in SQLite:
/// numbers by value, data by bytes, `nil` first).
///
/// The localized comparisons are a deterministic root-locale approximation of
/// ICU collation, the same in SQL (a registered collation) and in memory:
/// - primary: letters without case or diacritics;
/// - secondary: diacritics;
/// - tertiary: case, lowercase first.
public enum SortComparison: String, Sendable, Hashable, CaseIterable {
    /// `compare:`: UTF-8 byte order, SQLite's `BINARY`.
    case compare
    /// `caseInsensitiveCompare:`: Unicode case folding, then byte order.
    case caseInsensitiveCompare
    /// `localizedCompare:`: primary, secondary, tertiary.
    case localizedCompare
    /// `localizedCaseInsensitiveCompare:`: primary, secondary.
    case localizedCaseInsensitiveCompare
    /// `localizedStandardCompare:` (Finder order): as localized case-insensitive,
    /// with runs of digits compared by their numeric value ("file2" < "file10").
    case localizedStandardCompare

    /// The collation the SQL uses; `nil` for SQLite's `BINARY`.
    public var collationName: String? {
        switch self {
        case .compare: nil
        case .caseInsensitiveCompare: "PF_CASE_INSENSITIVE"
        case .localizedCompare: "PF_LOCALIZED"
        case .localizedCaseInsensitiveCompare: "PF_LOCALIZED_CASE_INSENSITIVE"
        case .localizedStandardCompare: "PF_LOCALIZED_STANDARD"
        }
    }

    /// -1, 0 or 1.
    public func compareStrings(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        if StringFolding.isASCII(a.utf8) && StringFolding.isASCII(b.utf8) {
            return a.withUTF8 { x in b.withUTF8 { y in compareASCII(x, y) } }
        }
        switch self {
        case .compare:
            return ValueOrdering.compareBytes(a.utf8, b.utf8)
        case .caseInsensitiveCompare:
            return ValueOrdering.compareBytes(StringFolding.fold(a, .caseInsensitive).utf8, StringFolding.fold(b, .caseInsensitive).utf8)
        case .localizedCompare, .localizedCaseInsensitiveCompare, .localizedStandardCompare:
            let numeric = self == .localizedStandardCompare
            let primary = Self.compareRuns(
                StringFolding.fold(a, [.caseInsensitive, .diacriticInsensitive]),
                StringFolding.fold(b, [.caseInsensitive, .diacriticInsensitive]), numeric: numeric)
            if primary != 0 { return primary }
            let secondary = Self.compareRuns(
                StringFolding.fold(a, .caseInsensitive), StringFolding.fold(b, .caseInsensitive), numeric: numeric)
            if secondary != 0 || self == .localizedCaseInsensitiveCompare { return secondary }
            return Self.compareCase(a, b)
        }
    }

    /// The order of two UTF-8 byte strings, as the SQL collation sees them.
    func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        if StringFolding.isASCII(a) && StringFolding.isASCII(b) { return compareASCII(a, b) }
        return compareStrings(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
    }

    /// The same order for two ASCII strings, on their bytes, with no folding pass:
    /// for ASCII, case folding is lowercasing and there are no diacritics, so the
    /// primary and secondary levels are both the lowercased comparison.
    func compareASCII(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        switch self {
        case .compare:
            return Self.compareRuns(a, b, numeric: false, lowercasing: false)
        case .caseInsensitiveCompare, .localizedCaseInsensitiveCompare:
            return Self.compareRuns(a, b, numeric: false, lowercasing: true)
        case .localizedCompare, .localizedStandardCompare:
            let primary = Self.compareRuns(a, b, numeric: self == .localizedStandardCompare, lowercasing: true)
            if primary != 0 { return primary }
            for (p, q) in zip(a, b) {
                let pUpper = p &- 0x41 < 26, qUpper = q &- 0x41 < 26
                if pUpper != qUpper { return pUpper ? 1 : -1 }
            }
            return 0
        }
    }

    private static func compareRuns(_ a: String, _ b: String, numeric: Bool) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in compareRuns(x, y, numeric: numeric, lowercasing: false) } }
    }

    /// Byte order (ASCII letters lowercased when `lowercasing`), or with `numeric`
    /// digit runs compared by value (leading zeros ignored).
    private static func compareRuns(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, numeric: Bool, lowercasing: Bool) -> Int {
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 { lowercasing && byte &- 0x41 < 26 ? byte | 0x20 : byte }
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if numeric && isDigit(x[i]) && isDigit(y[j]) {
                var iEnd = i, jEnd = j
                while iEnd < x.count && isDigit(x[iEnd]) { iEnd += 1 }
                while jEnd < y.count && isDigit(y[jEnd]) { jEnd += 1 }
                var iStart = i, jStart = j
                while iStart < iEnd - 1 && x[iStart] == 0x30 { iStart += 1 }
                while jStart < jEnd - 1 && y[jStart] == 0x30 { jStart += 1 }
                let lengths = (iEnd - iStart) - (jEnd - jStart)
                if lengths != 0 { return lengths < 0 ? -1 : 1 }
                let digits = ValueOrdering.compareBytes(x[iStart..<iEnd], y[jStart..<jEnd])
                if digits != 0 { return digits }
                i = iEnd
                j = jEnd
                continue
            }
            let p = lower(x[i]), q = lower(y[j])
            if p != q { return p < q ? -1 : 1 }
            i += 1
            j += 1
        }
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        return 0
    }

    /// Tertiary: lowercase before uppercase, position by position, on the decomposed strings.
    private static func compareCase(_ a: String, _ b: String) -> Int {
        let x = a.decomposedStringWithCanonicalMapping.unicodeScalars, y = b.decomposedStringWithCanonicalMapping.unicodeScalars
        for (p, q) in zip(x, y) {
            let pUpper = p.properties.isUppercase, qUpper = q.properties.isUppercase
            if pUpper != qUpper { return pUpper ? 1 : -1 }
        }
        return 0
    }
}
