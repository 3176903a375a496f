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

    static func json(_ value: PropertyListValue) throws -> String {
        let data = try value.encoded(as: .json, options: PropertyListWriteOptions(sortsKeys: true))
        let text = String(decoding: data, as: UTF8.self)
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    static func print(_ value: PropertyListValue, json: Bool) throws {
        try FileOutput.writeToStandardOutput(Data((json ? try self.json(value) : try text(value)).utf8))
    }
}
