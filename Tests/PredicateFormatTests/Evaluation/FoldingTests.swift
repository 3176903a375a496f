import PredicateFormat
import Testing

@Suite struct FoldingTests {
    static let cases: [(String, ComparisonOptions, String)] = [
        ("ÄPFEL", ComparisonOptions.caseInsensitive, "a\u{308}pfel"),
        ("ÄPFEL", [.caseInsensitive, .diacriticInsensitive], "apfel"),
        ("café", .diacriticInsensitive, "cafe"),
        ("cafe\u{301}", .diacriticInsensitive, "cafe"),
        ("Plain ASCII", .caseInsensitive, "plain ascii"),
        ("Plain ASCII", .diacriticInsensitive, "Plain ASCII"),
        ("ΩMEGA", .caseInsensitive, "ωmega"),
        ("x", [], "x"),
    ]

    @Test(arguments: cases)
    func folds(_ input: String, _ options: ComparisonOptions, _ expected: String) {
        #expect(StringFolding.fold(input, options).unicodeScalars.elementsEqual(expected.unicodeScalars))
    }

    @Test func foldingIsIdempotent() {
        for text in RandomWorld.names.compactMap({ $0 }) {
            for options in [ComparisonOptions.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]] {
                let once = StringFolding.fold(text, options)
                #expect(StringFolding.fold(once, options) == once, "\(text)")
            }
        }
    }

    @Test func evaluationErrorsAreTyped() throws {
        let subject = DictionarySubject(["name": .attribute(.string("x"))])
        #expect(throws: PredicateEvaluationError.self) { try FormatPredicate(format: "nosuch == 1").evaluate(with: subject) }
        #expect(throws: PredicateEvaluationError.self) { try FormatPredicate(format: "name MATCHES '('").evaluate(with: subject) }
        #expect(throws: PredicateEvaluationError.self) { try FormatPredicate(format: "name == $X").evaluate(with: subject) }
        #expect(try FormatPredicate(format: "name == $X").evaluate(with: subject, variables: ["X": .string("x")]))
        #expect(throws: PredicateEvaluationError.self) { try FormatPredicate(format: "name.length == 1").evaluate(with: subject) }
    }
}
