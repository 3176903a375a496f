import Foundation
import PropertyList

/// How `sandbox defaults` prints values: old-style property-list text (as
/// `defaults read` does), bare strings for a single string value, or JSON.
enum DefaultsPrinter {
    static func text(_ value: PropertyListValue) throws -> String {
        if case .string(let text) = value { return text + "\n" }
        let data = try OpenStepPropertyListWriter().write(value)
        let text = String(decoding: data, as: UTF8.self)
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// Prints `value` as text, or as JSON (``JSONOutput``) with `json`.
    static func print(_ value: PropertyListValue, json: Bool) throws {
        if json { return try JSONOutput.print(value) }
        // The app wrote these values: a string can hold escape sequences.
        try CommandRunner.print(try text(value))
    }
}
