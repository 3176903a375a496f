import GRDB
import PredicateFormat
import Testing

/// The grammar corpus: every valid format selects the expected people in memory
/// and through SQL, and its description parses back to the same tree; every
/// invalid one raises its error code at its column.
@Suite struct FormatCorpusTests {
    static let world = Result { try SampleWorld.make() }

    @Test func corpusIsLargeEnough() {
        #expect(ValidFormatCorpus.all.count + InvalidFormatCorpus.all.count >= 300)
    }

    @Test(arguments: ValidFormatCorpus.all)
    func validFormat(_ item: ValidFormatCase) throws {
        let world = try Self.world.get()
        var predicate = try FormatPredicate(format: item.format, arguments: item.arguments)
        if !item.variables.isEmpty { predicate = try predicate.substituting(item.variables) }
        #expect(try world.memoryMatches(predicate) == item.expected, "in memory")
        #expect(try world.sqlMatches(predicate) == item.expected, "through SQL")
        let reparsed = try FormatPredicate(format: predicate.description, arguments: [])
        #expect(reparsed == predicate, "description \(predicate.description)")
    }

    @Test(arguments: InvalidFormatCorpus.all)
    func invalidFormat(_ item: InvalidFormatCase) {
        do {
            let predicate = try FormatPredicate(format: item.format, arguments: item.arguments)
            Issue.record("parsed as \(predicate)")
        } catch {
            #expect(error.code == item.code, "\(error)")
            #expect(error.column == item.column, "\(error)")
            #expect(error.description.contains("column \(item.column)"))
        }
    }

    @Test func unknownVariableIsNamed() throws {
        let predicate = try FormatPredicate(format: "name == $NAME AND SUBQUERY(pets, $p, $p.name == $PET).@count > 0")
        #expect(predicate.variableNames == ["NAME", "PET"])
        #expect(throws: PredicateFormatError.self) { try predicate.substituting(["NAME": .string("x")]) }
        do {
            _ = try predicate.substituting(["NAME": .string("x")])
        } catch {
            #expect(error.code == .unknownVariable)
            #expect(error.text == "$PET")
        }
        let substituted = try predicate.substituting(["NAME": .string("x"), "PET": .string("Rex")])
        #expect(substituted.variableNames.isEmpty)
        #expect(substituted.description == "name == \"x\" AND SUBQUERY(pets, $p, $p.name == \"Rex\").@count > 0")
    }
}
