import Foundation
import PredicateFormat
import Testing

@Suite struct DescriptionTests {
    @Test(arguments: [
        ("name contains[cd] 'x'", "name CONTAINS[cd] \"x\""),
        ("a = 1 and b <> 2 or !c =< 3", "(a == 1 AND b != 2) OR NOT c <= 3"),
        ("a == 1 AND (b == 2 AND c == 3)", "a == 1 AND (b == 2 AND c == 3)"),
        ("NONE tags.name == \"x\"", "NOT ANY tags.name == \"x\""),
        ("some x.y => -2.5", "ANY x.y >= -2.5"),
        ("#in == yes", "#in == TRUE"),
        ("a == \"q\\\"\\\\\\n\\t\"", "a == \"q\\\"\\\\\\n\\t\""),
        ("a IN {1, 'b', nil}", "a IN {1, \"b\", nil}"),
        ("a == 1.0", "a == 1.0"),
        ("a == 1e20", "a == 1e+20"),
        ("a == 0x1F", "a == 31"),
        ("SUBQUERY(items, $x, $x.price > 5).@count == 0", "SUBQUERY(items, $x, $x.price > 5).@count == 0"),
        ("items.@sum.price > 1", "items.@sum.price > 1"),
        ("name BETWEEN {'a', 'b'}", "name BETWEEN {\"a\", \"b\"}"),
        ("TRUEPREDICATE OR falsepredicate", "TRUEPREDICATE OR FALSEPREDICATE"),
    ])
    func canonicalForm(_ input: String, _ expected: String) throws {
        let predicate = try FormatPredicate(format: input)
        #expect(predicate.description == expected)
        #expect(try FormatPredicate(format: predicate.description) == predicate)
    }

    @Test func constantsWithoutLiteralsRoundTrip() throws {
        let values: [AttributeValue] = [
            .date(Date(timeIntervalSinceReferenceDate: 12345.5)), .decimal(Decimal(string: "1.25")!),
            .uuid(UUID()), .uri(URL(string: "https://example.com/a?b=c")!), .data(Data([0, 255, 7])),
            .integer(.min), .integer(.max), .double(-0.0), .double(1e-300), .double(.infinity),
            .string("tab\tquote\"back\\slash\u{1}é👍"), .collection([.integer(1), .collection([.null])]),
        ]
        for value in values {
            let predicate = try FormatPredicate(format: "key == %@", value)
            let reparsed = try FormatPredicate(format: predicate.description)
            #expect(reparsed == predicate, "\(predicate.description)")
        }
    }

    @Test func equalPredicatesFingerprintAlike() throws {
        let a = try FormatPredicate(format: "name CONTAINS[c] %@", "lamp")
        let b = try FormatPredicate(format: "name contains[c] 'lamp'")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.description == b.description)
        #expect(try FormatPredicate(format: "name CONTAINS[c] %@", "lampe") != a)
    }
}
