import Foundation

/// Command-line options of `plist-benchmark`.
///
///     plist-benchmark [--data DIR] [--large-reps N] [--small-reps N] [--foundation-large-reps N]
///                     [--skip-foundation] [--profile FORMAT-OP]
struct BenchmarkOptions {
    /// Where Benchmarks/Scripts/gen_data.py wrote its files.
    var dataDirectory = URL(fileURLWithPath: "Benchmarks/Scripts/data")
    /// Repetitions for the ~17 MB document.
    var largeRepetitions = 5
    /// Repetitions for the ~4 KB document.
    var smallRepetitions = 200
    /// Repetitions for Foundation on the ~17 MB document, when not `largeRepetitions`:
    /// its slowest call takes ~10 s, so many repetitions of it would take many minutes.
    var foundationLargeRepetitions: Int?
    /// Leaves out Foundation (its large-input runs take minutes).
    var skipsFoundation = false
    /// Runs only ours on one operation of the large document (see ``ProfileRun``).
    var profileCase: String?

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--data": dataDirectory = URL(fileURLWithPath: try Self.value(after: argument, in: &remaining))
            case "--large-reps": largeRepetitions = try Self.count(after: argument, in: &remaining)
            case "--small-reps": smallRepetitions = try Self.count(after: argument, in: &remaining)
            case "--foundation-large-reps": foundationLargeRepetitions = try Self.count(after: argument, in: &remaining)
            case "--skip-foundation": skipsFoundation = true
            case "--profile": profileCase = try Self.value(after: argument, in: &remaining)
            default: throw BenchmarkFailure("unknown argument \(argument); usage: plist-benchmark [--data DIR] [--large-reps N] [--small-reps N] [--foundation-large-reps N] [--skip-foundation] [--profile FORMAT-OP]")
            }
        }
    }

    static func value(after option: String, in remaining: inout ArraySlice<String>) throws -> String {
        guard let value = remaining.popFirst() else { throw BenchmarkFailure("\(option) needs a value") }
        return value
    }

    static func count(after option: String, in remaining: inout ArraySlice<String>) throws -> Int {
        let text = try value(after: option, in: &remaining)
        guard let count = Int(text), count > 0 else { throw BenchmarkFailure("\(option) needs a positive count, not \(text)") }
        return count
    }
}
