import Foundation
import PropertyList

/// `--profile FORMAT-OP` (e.g. `binary-decode`): runs only ours, only that
/// operation, on the large document, so a profiler (perf, callgrind) sees
/// nothing else. The value an encode needs is decoded once up front.
enum ProfileRun {
    static let cases = ["binary-decode", "binary-encode", "xml-decode", "xml-encode"]

    static func run(_ name: String, input: BenchmarkInput) throws {
        guard cases.contains(name) else {
            throw BenchmarkFailure("--profile takes one of \(cases.joined(separator: ", ")), not \(name)")
        }
        let isBinary = name.hasPrefix("binary")
        let format: PropertyListFormat = isBinary ? .binary : .xml
        let data = isBinary ? input.binary : input.xml
        let timed: (time: Duration, result: Data)
        if name.hasSuffix("decode") {
            let decoded = try Stopwatch.best(of: input.repetitions) { try PropertyListValue.decode(data, as: format) }
            timed = (decoded.time, data)
        } else {
            let value = try PropertyListValue.decode(data, as: format)
            timed = try Stopwatch.best(of: input.repetitions) { try value.encoded(as: format) }
        }
        let row = Measurement(implementation: OurSuite.name, operation: name.hasSuffix("decode") ? "decode" : "encode",
                              format: isBinary ? "binary" : "xml", input: input.name, bytes: timed.result.count, time: timed.time)
        print(Markdown.row(row))
    }
}
