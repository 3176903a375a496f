import Foundation

/// Times Foundation's two property-list APIs on the same inputs.
enum FoundationSuite {
    static let serializationName = "PropertyListSerialization"
    static let codableName = "PropertyListDecoder/Encoder"

    /// `PropertyListSerialization`, including bridging the result to `[String: Any]`.
    static func runSerialization(_ input: BenchmarkInput, report: (Measurement) -> Void) throws {
        for (label, data) in input.encodings {
            let format: PropertyListSerialization.PropertyListFormat = label == "binary" ? .binary : .xml
            try RoundTrip.measure(
                serializationName, input, format: label, data: data,
                decode: { data throws -> [String: Any] in
                    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                    guard let dictionary = object as? [String: Any] else { throw BenchmarkFailure("root is not a dictionary") }
                    return dictionary
                },
                encode: { try PropertyListSerialization.data(fromPropertyList: $0, format: format, options: 0) },
                report: report)
        }
    }

    /// `PropertyListDecoder` into `[String: Entry]` and `PropertyListEncoder` back.
    static func runCodable(_ input: BenchmarkInput, report: (Measurement) -> Void) throws {
        for (label, data) in input.encodings {
            let decoder = PropertyListDecoder()
            let encoder = PropertyListEncoder()
            encoder.outputFormat = label == "binary" ? .binary : .xml
            try RoundTrip.measure(codableName, input, format: label, data: data,
                                  decode: { try decoder.decode([String: Entry].self, from: $0) },
                                  encode: { try encoder.encode($0) }, report: report)
        }
    }
}
