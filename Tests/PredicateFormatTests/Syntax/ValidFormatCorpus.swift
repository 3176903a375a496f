import Foundation
import PredicateFormat

/// A valid format and the people of ``SampleWorld`` it selects.
struct ValidFormatCase: CustomStringConvertible, Sendable {
    var format: String
    var arguments: [AttributeValue] = []
    var variables: [String: AttributeValue] = [:]
    var expected: [Int64]

    var description: String { format }
}

/// Hand-checked formats against ``SampleWorld``. ``ValidFormatCorpus/all`` adds spelling variants
/// (symbols for keywords, lower-case keywords, no spaces), negations and neutral
/// `TRUEPREDICATE`/`FALSEPREDICATE` combinations, each with the result that follows.
enum ValidFormatCorpus {
    static let everyone: [Int64] = [1, 2, 3, 4, 5, 6]

    static let base: [ValidFormatCase] = [
        // Comparisons of numbers.
        .init(format: "age > 30", expected: [1, 3, 6]),
        .init(format: "age == 27", expected: [2]),
        .init(format: "age != 27", expected: [1, 3, 4, 5, 6]),
        .init(format: "age < 30", expected: [2, 5]),
        .init(format: "age <= 27", expected: [2, 5]),
        .init(format: "age >= 45", expected: [3, 6]),
        .init(format: "age == nil", expected: [4]),
        .init(format: "age != nil", expected: [1, 2, 3, 5, 6]),
        .init(format: "nil == age", expected: [4]),
        .init(format: "30 < age", expected: [1, 3, 6]),
        .init(format: "score > 2.5", expected: [1, 2, 5]),
        .init(format: "score == 3", expected: [2]),
        .init(format: "score < age", expected: [1, 2, 5, 6]),
        .init(format: "score > -0.5", expected: [1, 2, 4, 5, 6]),
        .init(format: "age < -1", expected: []),
        .init(format: "age > 0x10", expected: [1, 2, 3, 5, 6]),
        .init(format: "age == 0b11011", expected: [2]),
        .init(format: "age == 0o33", expected: [2]),
        .init(format: "score == 1.5e0", expected: [6]),
        .init(format: "score >= 45e-1", expected: [1, 5]),
        .init(format: "age == 27.0", expected: [2]),
        .init(format: "age == \"27\"", expected: []),
        .init(format: "age BETWEEN {20, 40}", expected: [1, 2]),
        .init(format: "age BETWEEN {19, 19}", expected: [5]),
        .init(format: "score BETWEEN {2, 4.5}", expected: [1, 2, 4]),
        .init(format: "age BETWEEN %@", arguments: [.collection([.integer(30), .integer(50)])], expected: [1, 3]),
        .init(format: "age IN {27, 45}", expected: [2, 3]),
        .init(format: "age IN {}", expected: []),
        .init(format: "age IN {nil, 19}", expected: [4, 5]),
        .init(format: "balance > 5", expected: [1, 5]),
        .init(format: "balance == %@", arguments: [.decimal(3)], expected: [2]),
        .init(format: "balance < 0", expected: [6]),
        .init(format: "balance == 0.25", expected: [4]),
        .init(format: "balance == CAST(\"10.5\", \"NSDecimalNumber\")", expected: [1]),
        // Booleans.
        .init(format: "active == YES", expected: [1, 3, 5]),
        .init(format: "active == TRUE", expected: [1, 3, 5]),
        .init(format: "active == 1", expected: [1, 3, 5]),
        .init(format: "active == NO", expected: [2, 4]),
        .init(format: "active == FALSE", expected: [2, 4]),
        .init(format: "active == nil", expected: [6]),
        .init(format: "active != YES", expected: [2, 4, 6]),
        // Strings.
        .init(format: "name == \"Bob\"", expected: [2]),
        .init(format: "name == 'Bob'", expected: [2]),
        .init(format: "name ==[c] \"bob\"", expected: [2]),
        .init(format: "name == \"bob\"", expected: []),
        .init(format: "name == nil", expected: [6]),
        .init(format: "name != \"Bob\"", expected: [1, 3, 4, 5, 6]),
        .init(format: "name < \"B\"", expected: [1]),
        .init(format: "name > \"Z\"", expected: [3, 4, 5]),
        .init(format: "name >[c] \"b\"", expected: [2, 4, 5]),  // "ÄPFEL" folds to "a\u{308}pfel"
        .init(format: "name CONTAINS \"o\"", expected: [2, 5]),
        .init(format: "name CONTAINS[c] \"äpfel\"", expected: [3]),
        .init(format: "name CONTAINS[c] \"ÄPFEL\"", expected: [3]),
        .init(format: "name CONTAINS \"äpfel\"", expected: []),
        .init(format: "name CONTAINS[cd] \"apfel\"", expected: [3]),
        .init(format: "name CONTAINS[d] \"APFEL\"", expected: [3]),
        .init(format: "name CONTAINS[c] \"PF\"", expected: [3]),
        .init(format: "name CONTAINS \"\"", expected: []),
        .init(format: "name CONTAINS[c] %@", arguments: [.string("N")], expected: [1]),
        .init(format: "name ==[d] \"cafe\"", expected: [4]),
        .init(format: "name ==[cd] \"CAFE\"", expected: [4]),
        .init(format: "name == \"cafe\"", expected: []),
        .init(format: "name == \"caf\\u00E9\"", expected: [4]),
        .init(format: "name BEGINSWITH \"A\"", expected: [1]),
        .init(format: "name BEGINSWITH[d] \"A\"", expected: [1, 3]),
        .init(format: "name BEGINSWITH[cd] \"a\"", expected: [1, 3]),
        .init(format: "name BEGINSWITH \"\"", expected: []),
        .init(format: "name ENDSWITH \"e\"", expected: []),
        .init(format: "name ENDSWITH[d] \"e\"", expected: [4, 5]),
        .init(format: "name ENDSWITH \"é\"", expected: [4]),
        .init(format: "name ENDSWITH[c] \"EL\"", expected: [3]),
        .init(format: "name LIKE \"A*\"", expected: [1]),
        .init(format: "name LIKE \"?o?\"", expected: [2, 5]),
        .init(format: "name LIKE[c] \"b*\"", expected: [2]),
        .init(format: "name LIKE \"*\"", expected: [1, 2, 3, 4, 5]),
        .init(format: "name LIKE[cd] \"*E\"", expected: [4, 5]),
        .init(format: "name LIKE \"*n*\"", expected: [1]),
        .init(format: "name LIKE \"B\\\\*\"", expected: []),
        .init(format: "name MATCHES \"[A-Z][a-z]+\"", expected: [1, 2]),
        .init(format: "name MATCHES \".*o.*\"", expected: [2, 5]),
        .init(format: "name MATCHES[c] \"ann\"", expected: [1]),
        .init(format: "name MATCHES \"An\"", expected: []),
        .init(format: "name MATCHES \"An|Bob\"", expected: [2]),
        .init(format: "name MATCHES[d] \"Zoe\"", expected: [5]),
        .init(format: "name IN {\"Ann\", \"Zoë\"}", expected: [1, 5]),
        .init(format: "name IN[c] {\"ann\", \"BOB\"}", expected: [1, 2]),
        .init(format: "name IN %@", arguments: [.collection([.string("Ann"), .string("café")])], expected: [1, 4]),
        .init(format: "name IN (\"Ann\", \"Bob\")", expected: [1, 2]),
        .init(format: "\"o\" IN name", expected: [2, 5]),
        .init(format: "\"Bob\" == name", expected: [2]),
        .init(format: "{\"Ann\", \"Bob\"} CONTAINS name", expected: [1, 2]),
        .init(format: "homepage BEGINSWITH \"https\"", expected: [1]),
        .init(format: "homepage == %@", arguments: [.uri(URL(string: "http://zoe.example")!)], expected: [5]),
        .init(format: "homepage CONTAINS \"example\"", expected: [1, 5]),
        .init(format: "uid == %@", arguments: [.uuid(SampleWorld.annID)], expected: [1]),
        .init(format: "uid != nil", expected: [1, 2]),
        .init(format: "photo == %@", arguments: [.data(Data([1, 2, 3]))], expected: [1]),
        .init(format: "photo == nil", expected: [2, 3, 4, 5, 6]),
        // Dates.
        .init(format: "born > CAST(1500, \"NSDate\")", expected: [2, 5, 6]),
        .init(format: "born < %@", arguments: [.date(Date(timeIntervalSinceReferenceDate: 1500))], expected: [1, 4]),
        .init(format: "born == nil", expected: [3]),
        .init(format: "born BETWEEN %@", arguments: [.collection([.date(Date(timeIntervalSinceReferenceDate: 1000)), .date(Date(timeIntervalSinceReferenceDate: 3000))])], expected: [1, 2, 5]),
        // To-one.
        .init(format: "dept.name == \"Sales\"", expected: [1, 2]),
        .init(format: "dept.name == nil", expected: [4]),
        .init(format: "dept == nil", expected: [4]),
        .init(format: "dept != nil", expected: [1, 2, 3, 5, 6]),
        .init(format: "dept == %@", arguments: [.integer(2)], expected: [3, 5]),
        .init(format: "dept IN {1, 3}", expected: [1, 2, 6]),
        .init(format: "SELF IN %@", arguments: [.collection([.integer(2), .integer(4), .integer(9)])], expected: [2, 4]),
        .init(format: "ANY tags == 3", expected: [5, 6]),
        .init(format: "SUBQUERY(pets, $p, $p == 6).@count == 1", expected: [5]),
        .init(format: "dept.budget > 2000", expected: [3, 5]),
        .init(format: "dept.budget == nil", expected: [4, 6]),
        .init(format: "dept.name BEGINSWITH[c] \"r\"", expected: [3, 5]),
        .init(format: "ANY dept.name == \"Ops\"", expected: [6]),
        // To-many.
        .init(format: "ANY pets.name == \"Rex\"", expected: [1, 5]),
        .init(format: "pets.name == \"Rex\"", expected: [1, 5]),
        .init(format: "SOME pets.name == \"Rex\"", expected: [1, 5]),
        .init(format: "ANY pets.weight > 10", expected: [1, 4]),
        .init(format: "ALL pets.weight > 5", expected: [2, 4, 6]),
        .init(format: "NONE pets.weight > 10", expected: [2, 3, 5, 6]),
        .init(format: "SOME pets.name BEGINSWITH \"B\"", expected: [5]),
        .init(format: "ANY pets.weight == nil", expected: [3]),
        .init(format: "pets.@count == 0", expected: [2, 6]),
        .init(format: "pets.@count >= 2", expected: [1, 5]),
        .init(format: "pets.@sum.weight > 10", expected: [1, 4]),
        .init(format: "pets.@sum.weight == 0", expected: [2, 3, 6]),
        .init(format: "pets.@avg.weight < 10", expected: [1, 5]),
        .init(format: "pets.@avg.weight == nil", expected: [2, 3, 6]),
        .init(format: "pets.@max.weight == 30", expected: [4]),
        .init(format: "pets.@min.weight < 5", expected: [1, 5]),
        .init(format: "tags.@count == 3", expected: [5]),
        .init(format: "tags.@count > pets.@count", expected: [2, 4, 5, 6]),
        .init(format: "ANY tags.name == \"swift\"", expected: [1, 2, 5]),
        .init(format: "tags.name CONTAINS[d] \"cafe\"", expected: [4]),
        .init(format: "ALL tags.name == \"swift\"", expected: [2, 3]),
        .init(format: "NONE tags.name == \"linux\"", expected: [1, 2, 3, 4]),
        .init(format: "\"linux\" IN tags.name", expected: [5, 6]),
        .init(format: "ANY tags.name IN {\"linux\", \"café\"}", expected: [4, 5, 6]),
        .init(format: "dept.people.@count > 1", expected: [1, 2, 3, 5]),
        .init(format: "ANY dept.people.name == \"Bob\"", expected: [1, 2]),
        // An unset to-one before a to-many gives one nil, not an empty collection.
        .init(format: "ANY dept.people.name == nil", expected: [4, 6]),
        .init(format: "ALL dept.people.age > 20", expected: [1, 2, 6]),
        .init(format: "ANY tags.people.age > 50", expected: [5, 6]),
        .init(format: "ANY pets.owner.name == \"Zoë\"", expected: [5]),
        .init(format: "SUBQUERY(pets, $p, $p.weight > 5).@count > 0", expected: [1, 4, 5]),
        .init(format: "SUBQUERY(pets, $p, $p.weight > 5 AND $p.name BEGINSWITH \"R\").@count == 1", expected: [1, 5]),
        .init(format: "SUBQUERY(tags, $t, $t.name == \"ios\").@count == 1", expected: [1, 4, 5]),
        .init(format: "SUBQUERY(pets, $p, $p.weight < SELF.age).@count == 2", expected: [1, 5]),
        .init(format: "SUBQUERY(pets, $p, ANY $p.owner.tags.name == \"linux\").@count > 0", expected: [5]),
        .init(format: "subquery(pets, $x, TRUEPREDICATE).@count == pets.@count", expected: everyone),
        // Arguments and variables.
        .init(format: "%K == %@", arguments: [.string("name"), .string("Bob")], expected: [2]),
        .init(format: "%K.name == \"Sales\"", arguments: [.string("dept")], expected: [1, 2]),
        .init(format: "%K > 1", arguments: [.string("pets.@count")], expected: [1, 5]),
        .init(format: "age > %d", arguments: [.integer(30)], expected: [1, 3, 6]),
        .init(format: "age > %i", arguments: [.integer(30)], expected: [1, 3, 6]),
        .init(format: "age > %ld", arguments: [.integer(30)], expected: [1, 3, 6]),
        .init(format: "score > %f", arguments: [.double(2.5)], expected: [1, 2, 5]),
        .init(format: "score > %lf", arguments: [.integer(2)], expected: [1, 2, 4, 5]),
        .init(format: "name == %@", arguments: [.null], expected: [6]),
        .init(format: "name == $NAME", variables: ["NAME": .string("Bob")], expected: [2]),
        .init(format: "age BETWEEN {$LOW, $HIGH}", variables: ["LOW": .integer(20), "HIGH": .integer(40)], expected: [1, 2]),
        .init(format: "SELF == nil", expected: []),
        .init(format: "SELF != nil", expected: everyone),
        .init(format: "#name == \"Ann\"", expected: [1]),
        // Compounds.
        .init(format: "TRUEPREDICATE", expected: everyone),
        .init(format: "FALSEPREDICATE", expected: []),
        .init(format: "age > 30 AND active == YES", expected: [1, 3]),
        .init(format: "age > 30 OR name == \"Bob\"", expected: [1, 2, 3, 6]),
        .init(format: "NOT age > 30", expected: [2, 4, 5]),
        .init(format: "NOT (age > 30 OR active == NO)", expected: [5]),
        .init(format: "(age > 30 OR active == NO) AND score > 2", expected: [1, 2, 4]),
        .init(format: "age > 30 OR active == NO AND score > 2", expected: [1, 2, 3, 4, 6]),
        .init(format: "NOT NOT age == 27", expected: [2]),
        .init(format: "name contains[c] \"o\" and age > 20", expected: [2]),
        .init(format: "NOT name CONTAINS \"o\"", expected: [1, 3, 4, 6]),
        .init(format: "NOT name BEGINSWITH \"A\"", expected: [2, 3, 4, 5, 6]),
        .init(format: "NOT name LIKE \"A*\"", expected: [2, 3, 4, 5, 6]),
        .init(format: "NOT age < 30", expected: [1, 3, 4, 6]),
        .init(format: "NOT name ==[c] \"bob\"", expected: [1, 3, 4, 5, 6]),
        .init(format: "NOT dept.budget > 2000", expected: [1, 2, 4, 6]),
        .init(format: "NOT age IN {27, 45}", expected: [1, 4, 5, 6]),
        .init(format: "NOT ALL pets.weight > 5", expected: [1, 3, 5]),
    ]

    /// The base cases plus their variants: well over 300 formats.
    static var all: [ValidFormatCase] {
        var cases: [ValidFormatCase] = []
        for item in base {
            cases.append(item)
            for variant in spellings(item.format) where variant != item.format {
                var copy = item
                copy.format = variant
                cases.append(copy)
            }
            var negated = item
            negated.format = "NOT (\(item.format))"
            negated.expected = everyone.filter { !item.expected.contains($0) }
            cases.append(negated)
            var withTrue = item
            withTrue.format = "TRUEPREDICATE AND (\(item.format))"
            cases.append(withTrue)
            var withFalse = item
            withFalse.format = "(\(item.format)) || FALSEPREDICATE"
            cases.append(withFalse)
        }
        return cases
    }

    /// The same format with other spellings: symbols for keywords, lower-case keywords.
    static func spellings(_ format: String) -> [String] {
        let replacements: [(String, String)] = [
            (" == ", " = "), (" != ", " <> "), (" <= ", " =< "), (" >= ", " => "),
            (" AND ", " && "), (" OR ", " || "), ("NOT ", "!"), (" AND ", " and "),
            (" CONTAINS", " contains"), (" BEGINSWITH", " beginswith"), (" ENDSWITH", " endsWith"),
            (" LIKE", " like"), (" MATCHES", " matches"), (" IN ", " in "), (" BETWEEN ", " between "),
            ("ANY ", "any "), ("ALL ", "All "), ("SUBQUERY", "Subquery"), ("TRUEPREDICATE", "truepredicate"),
            (" nil", " NULL"), ("YES", "yes"),
        ]
        var variants: [String] = []
        for (from, to) in replacements where format.contains(from) && !insideString(format, from) {
            variants.append(format.replacingOccurrences(of: from, with: to))
        }
        return variants
    }

    /// Whether `token` occurs inside a quoted string (then replacing it would change a literal).
    private static func insideString(_ format: String, _ token: String) -> Bool {
        var inString = false
        var quote: Character = "\""
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            if inString {
                if character == "\\" { index = format.index(after: index) } else if character == quote { inString = false }
            } else if character == "\"" || character == "'" {
                inString = true
                quote = character
            } else if format[index...].hasPrefix(token) {
                return false
            }
            if index < format.endIndex { index = format.index(after: index) }
        }
        return true
    }
}
