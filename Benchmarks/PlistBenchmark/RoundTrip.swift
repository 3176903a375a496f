import Foundation

/// The measurement every implementation gets: decode each encoding of the
/// input, then encode the decoded value back to the same format.
enum RoundTrip {
    /// Times `decode` on the encoding's bytes and `encode` on its result,
    /// reporting one row for each.
    static func measure<Value>(
        _ implementation: String, _ input: BenchmarkInput, format: String, data: Data,
        decode: (Data) throws -> Value, encode: (Value) throws -> Data, report: (Measurement) -> Void
    ) throws {
        let decoded = try Stopwatch.best(of: input.repetitions) { try decode(data) }
        report(Measurement(implementation: implementation, operation: "decode", format: format, input: input.name,
                           bytes: data.count, time: decoded.time))
        let value = decoded.result
        let encoded = try Stopwatch.best(of: input.repetitions) { try encode(value) }
        report(Measurement(implementation: implementation, operation: "encode", format: format, input: input.name,
                           bytes: encoded.result.count, time: encoded.time))
    }
}
