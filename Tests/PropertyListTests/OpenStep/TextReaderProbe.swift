import Foundation
import Testing
import PropertyList

/// Runs a text reader (OpenStep or JSON) on strings, for tests.
struct TextReaderProbe {
    let reader: (Data, PropertyListLimits) throws -> PropertyListValue

    /// The value `text` reads as.
    func read(_ text: String, limits: PropertyListLimits = .default) throws -> PropertyListValue {
        try reader(Data(text.utf8), limits)
    }

    /// The error reading `text` throws, or `nil` when it reads.
    func error(_ text: String, limits: PropertyListLimits = .default) -> PropertyListError? {
        do {
            _ = try read(text, limits: limits)
            return nil
        } catch {
            return error as? PropertyListError
        }
    }

    /// Checks that each text fails with a syntax error whose message
    /// contains the expected words, at the expected place.
    func expectSyntaxErrors(_ cases: [(String, String, PropertyListError.Location)],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        for (text, expected, location) in cases {
            let error = error(text)
            #expect(error?.code == .syntax, "\(text)", sourceLocation: sourceLocation)
            #expect(error?.message.contains(expected) == true, "\(text): \(error?.message ?? "no error")", sourceLocation: sourceLocation)
            #expect(error?.location == location, "\(text)", sourceLocation: sourceLocation)
        }
    }
}
