/// The report's numbers, formatted by integer arithmetic only: no locale,
/// no platform `printf`, so the same audit gives the same bytes anywhere.
/// Public for `sandbox audit`'s text, which states quotas and shares the
/// same way.
public enum ReportNumbers {
    /// `512 B`, `1.5 KB`, `3.2 GB`: powers of 1024, one decimal, rounded
    /// half up.
    public static func bytes(_ count: UInt64) -> String {
        guard count >= 1024 else { return "\(count) B" }
        let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
        var unit = 0
        var divisor: UInt64 = 1024
        while unit < units.count - 1, count / divisor >= 1024 {
            divisor *= 1024
            unit += 1
        }
        // Tenths, from the quotient and remainder (count × 10 may overflow).
        let whole = count / divisor
        let tenths = ((count % divisor) * 10 + divisor / 2) / divisor
        return tenths == 10 ? "\(whole + 1).0 \(units[unit])" : "\(whole).\(tenths) \(units[unit])"
    }

    /// `1,234,567`: an exact count with thousands separators.
    public static func grouped(_ value: UInt64) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    /// `12.3%` from thousandths.
    public static func percent(permille: UInt64) -> String { "\(permille / 10).\(permille % 10)%" }

    /// iCloud's quotas are decimal: `5 GB` is 5,000,000,000 bytes; a quota
    /// that is not a whole number of GB is given in ``bytes(_:)``.
    public static func quota(_ bytes: UInt64) -> String {
        bytes > 0 && bytes % 1_000_000_000 == 0 ? "\(bytes / 1_000_000_000) GB" : Self.bytes(bytes)
    }

    /// `part` as a share of `whole` in thousandths, rounded half up (0 for
    /// an empty whole).
    public static func permille(_ part: UInt64, of whole: UInt64) -> UInt64 {
        guard whole > 0 else { return 0 }
        return UInt64((Double(part) * 1000 / Double(whole)).rounded())
    }

    /// A coordinate or length with two decimals (`12.5` as `12.50`), for
    /// SVG and CSS: fixed digits, whatever the platform prints for a Double.
    public static func fixed(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "0.00" }
        let integer = Int64(hundredths)
        let sign = integer < 0 ? "-" : ""
        let magnitude = integer.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
