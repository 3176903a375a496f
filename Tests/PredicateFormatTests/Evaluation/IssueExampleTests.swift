import Foundation
import GRDB
import PredicateFormat
import Testing

/// The examples issue 16 names, in memory and through SQL.
@Suite struct IssueExampleTests {
    static func person(_ name: String) -> DictionarySubject {
        DictionarySubject(["name": .attribute(.string(name))])
    }

    @Test func containsCaseInsensitiveFoldsUnicode() throws {
        let predicate = try FormatPredicate(format: "name contains[c] %@", "äpfel")
        #expect(try predicate.evaluate(with: Self.person("ÄPFEL")))
        #expect(try FormatPredicate(format: "name contains[c] %@", "ÄPFEL").evaluate(with: Self.person("grüne äpfel")))
        #expect(try !FormatPredicate(format: "name contains %@", "äpfel").evaluate(with: Self.person("ÄPFEL")))
    }

    @Test func diacriticInsensitiveMatchesCafe() throws {
        #expect(try FormatPredicate(format: "name ==[d] %@", "cafe").evaluate(with: Self.person("café")))
        #expect(try FormatPredicate(format: "name CONTAINS[d] %@", "café").evaluate(with: Self.person("Cafe au lait")) == false)
        #expect(try FormatPredicate(format: "name CONTAINS[cd] %@", "café").evaluate(with: Self.person("Cafe au lait")))
        // Decomposed and precomposed spellings fold alike.
        #expect(try FormatPredicate(format: "name ==[d] %@", "cafe").evaluate(with: Self.person("cafe\u{301}")))
    }

    @Test func seedSearchThroughSQL() throws {
        let world = try SampleWorld.make()
        let predicate = try FormatPredicate(format: "name contains[c] %@", "äpfel")
        #expect(try world.sqlMatches(predicate) == [3])
        #expect(try world.sqlMatches(FormatPredicate(format: "name contains[c] %@", "ÄPFEL")) == [3])
        #expect(try world.sqlMatches(FormatPredicate(format: "name ==[d] %@", "cafe")) == [4])
        #expect(try world.sqlMatches(FormatPredicate(format: "name contains[c] %@", "N")) == [1])
    }

    @Test func swiftArgumentsOfEveryKind() throws {
        let date = Date(timeIntervalSinceReferenceDate: 100)
        let predicate = try FormatPredicate(
            format: "a == %@ AND b == %d AND c == %f AND d == %@ AND e == %@ AND f IN %@ AND g == %@",
            "x", 3, 1.5, true, date, ["p", "q"], Optional<String>.none)
        #expect(predicate.description == "a == \"x\" AND b == 3 AND c == 1.5 AND d == TRUE AND e == CAST(100.0, \"NSDate\") AND f IN {\"p\", \"q\"} AND g == nil")
    }
}
