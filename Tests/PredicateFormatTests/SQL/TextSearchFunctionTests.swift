import GRDB
import PredicateFormat
import Testing

/// The C-level search functions agree with in-memory evaluation on awkward text:
/// combining marks next to ASCII, the Kelvin sign, dotted capital I, final sigma.
@Suite struct TextSearchFunctionTests {
    static let haystacks = [
        "cafe\u{301}s", "café", "CAFÉ", "\u{212A}elvin", "kelvin", "İstanbul", "ΟΔΟΣ", "οδος", "straße", "ab\u{301}c",
        "plain ascii", "PLAIN", "", "x\u{323}\u{301}y", "日本語", "👍ok", "Äpfel", "a\u{308}pfel",
    ]
    static let needles = ["e", "es", "caf", "kel", "K", "i", "ς", "σ", "ss", "bc", "b\u{301}", "ain", "é", "本", "ok", "äp", "a", "\u{301}"]

    @Test func functionsAgreeWithMemory() throws {
        let queue = try DatabaseQueue()
        queue.inDatabase { db in db.registerPredicateFunctions() }
        for op in ["CONTAINS", "BEGINSWITH", "ENDSWITH", "==", "<", ">=", "LIKE", "IN"] {
            for options in ["", "[c]", "[d]", "[cd]"] {
                for needle in Self.needles {
                    let predicate = try FormatPredicate(format: "name \(op)\(options) %@", needle)
                    let schema = SQLSchema([SQLEntityMapping(name: "T", table: "T", attributes: ["name": SQLAttributeMapping(column: "name", kind: .string)])])
                    let condition = try PredicateSQLCompiler(schema: schema).whereClause(for: predicate, entity: "T")
                    for haystack in Self.haystacks {
                        let memory = try predicate.evaluate(with: DictionarySubject(["name": .attribute(.string(haystack))]))
                        let sql = try queue.inDatabase { db in
                            try Bool.fetchOne(db, sql: "SELECT \(condition.sql) FROM (SELECT ? AS name) AS t0",
                                              arguments: condition.arguments + [haystack])
                        }
                        #expect(sql == memory, "\(haystack.debugDescription) \(predicate)")
                    }
                }
            }
        }
    }

    /// A match never splits a character: as NSString compares whole
    /// characters, "café" does not contain "cafe" under [c], only under [d].
    @Test func matchesEndOnCharacterBoundaries() throws {
        for (haystack, format, expected) in [
            ("Café", #"name CONTAINS[c] "cafe""#, false), ("Café", #"name CONTAINS[cd] "cafe""#, true),
            ("cafe\u{301}", #"name BEGINSWITH[c] "cafe""#, false), ("Café au lait", #"name CONTAINS[c] "caf""#, true),
            ("\u{212A}elvin", #"name BEGINSWITH[c] "kel""#, true), ("Desk LAMP", #"name CONTAINS[c] "lamp""#, true),
            ("Lámpara", #"name CONTAINS[c] "lampara""#, false), ("Lámpara", #"name CONTAINS[cd] "lampara""#, true),
        ] {
            let predicate = try FormatPredicate(format: format, arguments: [])
            #expect(try predicate.evaluate(with: DictionarySubject(["name": .attribute(.string(haystack))])) == expected, "\(haystack) \(format)")
        }
    }
}
