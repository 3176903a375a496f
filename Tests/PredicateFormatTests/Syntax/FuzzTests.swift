import Foundation
import PredicateFormat
import TestSupport
import Testing

/// Random input never traps: it parses or throws a typed error, and whatever parses
/// round-trips through its description, evaluates or throws, and compiles or throws.
@Suite struct FuzzTests {
    static let pieces = [
        "name", "age", "pets", "tags", ".", "@count", "@sum", "@avg", "@max", "@min", "==", "=", "!=", "<>", "<", ">", "<=", ">=",
        "=<", "=>", "AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", "[", "]", "[c]", "[cd]", ",", "ANY", "ALL", "NONE",
        "SOME", "IN", "BETWEEN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "SUBQUERY", "$x", "$x.name", "%@",
        "%K", "%d", "%f", "nil", "TRUE", "NO", "SELF", "TRUEPREDICATE", "FALSEPREDICATE", "\"a\"", "'é'", "\"", "'", "\\",
        "1", "-2.5", "0x1f", "1e5", "CAST", "\"NSDate\"", "#", "#name", "Ä", "👍", " ", " ", " ", "dept", "dept.name", "weight",
        "*", "?", "%", "@", "$", "~", ";", "\u{0}", "\n",
    ]

    @Test func randomFormatsNeverTrap() throws {
        let world = try SampleWorld.make()
        var generator = SeededGenerator(seed: 16)
        var parsed = 0
        for _ in 0..<20_000 {
            var format = ""
            for _ in 0..<Int.random(in: 1...14, using: &generator) {
                if Int.random(in: 0..<10, using: &generator) == 0 {
                    format.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &generator)))
                } else {
                    format += Self.pieces.randomElement(using: &generator) ?? ""
                }
                if Bool.random(using: &generator) { format += " " }
            }
            let arguments: [AttributeValue] = [.string("name"), .integer(3), .double(1.5), .string("x")]
            guard let predicate = try? FormatPredicate(format: format, arguments: arguments) else { continue }
            parsed += 1
            #expect(try FormatPredicate(format: predicate.description) == predicate, "\(format)")
            for person in world.people { _ = try? predicate.evaluate(with: person) }
            _ = try? world.sqlMatches(predicate)
        }
        #expect(parsed > 50)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        #expect(throws: PredicateFormatError.self) { try FormatPredicate(format: deep) }
        let nots = String(repeating: "NOT ", count: 5000) + "a == 1"
        #expect(throws: PredicateFormatError.self) { try FormatPredicate(format: nots) }
        let shallow = String(repeating: "(", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        #expect((try? FormatPredicate(format: shallow)) != nil)
    }
}
