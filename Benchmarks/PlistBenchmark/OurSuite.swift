import Foundation
import PropertyList

/// Times this package's readers and writers (`PropertyListValue`).
enum OurSuite {
    static let name = "ours (PropertyListValue)"

    static func run(_ input: BenchmarkInput, report: (Measurement) -> Void) throws {
        for (label, data) in input.encodings {
            let format: PropertyListFormat = label == "binary" ? .binary : .xml
            try RoundTrip.measure(name, input, format: label, data: data,
                                  decode: { try PropertyListValue.decode($0, as: format) },
                                  encode: { try $0.encoded(as: format) }, report: report)
        }
    }
}
