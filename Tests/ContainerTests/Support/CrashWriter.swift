import Foundation
import TestSupport
import Testing

/// The `container-crash-writer` executable of this build.
enum CrashWriter {
    static let executable = BuiltExecutable.locate("container-crash-writer")

    /// Starts the writer; its output goes to `output` if given.
    static func start(_ arguments: [String], output: Pipe? = nil) throws -> Process {
        try ChildProcess.start(#require(executable, "container-crash-writer was not built"), arguments, output: output)
    }

    /// Runs the writer to the end and returns what it printed.
    static func output(_ arguments: [String]) throws -> String {
        let executable = try #require(executable, "container-crash-writer was not built")
        return try ChildProcess.run(executable, arguments).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `data` is one complete payload of the writer (its
    /// `CrashPayload`): header, uniform body, matching trailer, exact size.
    static func isComplete(_ data: Data, size: Int) -> Bool {
        guard data.count == size, let newline = data.firstIndex(of: 0x0a) else { return false }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self)
        guard header.hasPrefix("GEN "), let generation = UInt64(header.dropFirst(4)) else { return false }
        let trailer = Data("END \(generation)\n".utf8)
        guard data.count >= newline + 1 + trailer.count, data.suffix(trailer.count) == trailer else { return false }
        let body = data[(newline + 1)..<(data.count - trailer.count)]
        let expected = UInt8(truncatingIfNeeded: generation % 251 + 1)
        return body.allSatisfy { $0 == expected }
    }
}
