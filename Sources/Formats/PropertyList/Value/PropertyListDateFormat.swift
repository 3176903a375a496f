import Foundation

/// Dates as the JSON writer writes them, for tools that print dates beside
/// property lists and must agree with it.
public enum PropertyListDateFormat {
    /// `2021-12-07T23:45:41.68Z`: ISO 8601 in UTC, proleptic Gregorian,
    /// with the fewest fraction digits that read back to the same `Date`,
    /// and no fraction for a whole second. Nil for a date that is not
    /// finite or too far from 2001 to write.
    public static func iso8601(_ date: Date) -> String? {
        var output = ByteBuffer(capacity: 40)
        guard PropertyListDateText.append(date, style: .iso8601, to: &output) else { return nil }
        return String(decoding: output.written, as: UTF8.self)
    }
}
