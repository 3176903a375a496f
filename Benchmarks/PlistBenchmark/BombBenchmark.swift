import Foundation
import PropertyList

/// Times the shared-reference "bomb" files (object i = [i+1, i+1]): a few
/// hundred bytes that are 2^levels leaves if references are expanded.
enum BombBenchmark {
    /// One bomb timing, printed as a table row.
    struct Result {
        var implementation: String
        var levels: Int
        var bytes: Int
        var outcome: String
        var time: Duration
        var note: String
    }

    static let tableHeader = """
        | implementation | levels (leaves) | bytes | outcome | time | note |
        |---|---|---:|---|---:|---|
        """

    static func row(_ result: Result) -> String {
        "| \(result.implementation) | \(result.levels) (2^\(result.levels)) | \(result.bytes) | \(result.outcome) | "
            + "\(Markdown.humanTime(result.time)) | \(result.note) |"
    }

    static func file(_ directory: URL, levels: Int) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent("bomb\(levels).bplist"))
    }

    /// Ours on the 30-level bomb, best of `repetitions`: decoded (shared) or refused.
    static func ours(_ directory: URL, repetitions: Int) throws -> Result {
        let data = try file(directory, levels: 30)
        let timed = try Stopwatch.best(of: repetitions) { () -> String in
            do {
                let value = try PropertyListValue.decode(data, as: .binary)
                return "decoded (\(value.arrayValue?.count ?? 0)-element root)"
            } catch let error as PropertyListError {
                return "refused: \(error.code)"
            }
        }
        return Result(implementation: OurSuite.name, levels: 30, bytes: data.count, outcome: timed.result,
                      time: timed.time, note: "best of \(repetitions)")
    }

    /// `PropertyListSerialization` on the 20-level bomb, once: at 30 levels it
    /// runs for more than 20 s (notes/formats.md §5), so that file is not tried.
    static func foundation(_ directory: URL) throws -> Result {
        let data = try file(directory, levels: 20)
        let timed = try Stopwatch.best(of: 1) { () -> String in
            do {
                let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                return "decoded (\((object as? [Any])?.count ?? 0)-element root)"
            } catch {
                return "refused"
            }
        }
        return Result(implementation: FoundationSuite.serializationName, levels: 20, bytes: data.count,
                      outcome: timed.result, time: timed.time, note: "one run; 30 levels not run (> 20 s)")
    }
}
