/// A command, or the options it shares, that prints either stable JSON
/// (with `--json`) or text for people.
///
/// Each declares its own `--json` flag, whose help says what its JSON is;
/// how the choice is made and printed is written once, here, so every such
/// command prints the same way.
protocol JSONOrTextOutput {
    /// Whether `--json` was given.
    var json: Bool { get }
}

extension JSONOrTextOutput {
    /// Prints `value` as JSON (``JSONOutput``: sorted keys, ISO 8601 dates,
    /// a final newline) with `--json`, else `text` with a final newline;
    /// empty text prints nothing. Only the one asked for is made.
    func output(json value: @autoclosure () throws -> some Encodable, text: @autoclosure () throws -> String) throws {
        if json {
            try JSONOutput.print(value())
        } else {
            let line = try text()
            guard !line.isEmpty else { return }
            try CommandRunner.print(line.hasSuffix("\n") ? line : line + "\n")
        }
    }
}
