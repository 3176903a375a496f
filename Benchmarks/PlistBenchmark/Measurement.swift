import Foundation

/// One row of the results table.
struct Measurement {
    /// Which implementation ran, e.g. "ours" or "PropertyListSerialization".
    var implementation: String
    /// "decode" or "encode".
    var operation: String
    /// "binary" or "xml".
    var format: String
    /// "large" or "small".
    var input: String
    /// Input bytes for a decode, output bytes for an encode.
    var bytes: Int
    /// Best-of-N time.
    var time: Duration

    /// Throughput in MB/s (10^6 bytes per second) over `bytes`.
    var megabytesPerSecond: Double { Double(bytes) / 1e6 / time.seconds }
}

/// Markdown rendering shared by every section of the output.
enum Markdown {
    static let tableHeader = """
        | implementation | op | format | input | bytes | MB/s | time |
        |---|---|---|---|---:|---:|---:|
        """

    static func row(_ measurement: Measurement) -> String {
        "| \(measurement.implementation) | \(measurement.operation) | \(measurement.format) | \(measurement.input) | "
            + "\(grouped(measurement.bytes)) | \(fixed(measurement.megabytesPerSecond, digits: 1)) | \(humanTime(measurement.time)) |"
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// A decimal with a fixed number of fraction digits ("C" locale).
    static func fixed(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// A duration in the unit that keeps three significant figures readable.
    static func humanTime(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds >= 1 { return fixed(seconds, digits: 2) + " s" }
        if seconds >= 1e-3 { return fixed(seconds * 1e3, digits: 1) + " ms" }
        return fixed(seconds * 1e6, digits: 1) + " µs"
    }
}
