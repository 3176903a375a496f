import Foundation
import PredicateFormat
import TestSupport

/// A seeded world of many people, with names that differ only by case,
/// diacritics or normalization, nils everywhere, pets (plus toys that share
/// their table) and tags.
enum RandomWorld {
    static let names: [String?] = [
        "Äpfel", "äpfel", "APFEL", "apfel", "café", "CAFÉ", "cafe\u{301}", "cafe", "Zoë", "zoe", "ZOE", "Bob", "bob", "",
        nil, nil, "straße", "STRASSE", "İstanbul", "istanbul", "ǅemal", "Ωmega", "ωmega", "naïve", "NAIVE", "file2", "file10",
        "File1", "x*y", "50%", "a_b", "Ann", "ann-marie", "Åsa", "Øre", "lamp", "Lamp shade", "LAMPE", "l\u{e2}mpe", "日本", "👍ok",
    ]
    static let petNames: [String?] = ["Rex", "rex", "Réx", "Bub", "Fifi", nil, "Max", "MAX", "Café", "Öl"]
    static let tagNames = ["swift", "Swift", "ios", "linux", "café", "CAFE", "Ärger", "arger", "x"]

    static func make(count: Int, seed: UInt64) throws -> TestWorld {
        var generator = SeededGenerator(seed: seed)
        func maybe<T>(_ value: T, nilOneIn: Int = 6) -> T? {
            Int.random(in: 0..<nilOneIn, using: &generator) == 0 ? nil : value
        }
        // Small departments, as in real data: `dept.people` then reaches a handful of rows.
        let departments = (1...max(2, count / 8)).map { index in
            TestObject("Dept", Int64(index), [
                "name": names.randomElement(using: &generator)!.map { .string($0) } ?? .null,
                "budget": maybe(.integer(Int64.random(in: 0...10_000, using: &generator))) ?? .null,
            ])
        }
        let tags = tagNames.enumerated().map { TestObject("Tag", Int64($0.offset + 1), ["name": .string($0.element)]) }
        var people: [TestObject] = []
        var pets: [TestObject] = []
        var toys: [(String, Int64)] = []
        for index in 1...count {
            let pk = Int64(index)
            let person = TestObject("Person", pk, [
                "name": names.randomElement(using: &generator)!.map { .string($0) } ?? .null,
                "age": maybe(.integer(Int64.random(in: -5...99, using: &generator))) ?? .null,
                "score": maybe(.double((Double.random(in: -10...10, using: &generator) * 4).rounded() / 4)) ?? .null,
                "active": maybe(.bool(Bool.random(using: &generator))) ?? .null,
                "born": maybe(.date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1000...1000, using: &generator)) * 1000.5))) ?? .null,
                "balance": maybe(.decimal(Decimal(Int.random(in: -400...400, using: &generator)) / 4)) ?? .null,
                "uid": .null, "homepage": .null, "photo": .null,
            ])
            person.toOne["dept"] = .some(maybe(departments.randomElement(using: &generator)!))
            person.toMany["tags"] = tags.filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }
            var owned: [TestObject] = []
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let pet = TestObject("Pet", Int64(pets.count + 1), [
                    "name": petNames.randomElement(using: &generator)!.map { .string($0) } ?? .null,
                    "weight": maybe(.double(Double(Int.random(in: 0...80, using: &generator)) / 2)) ?? .null,
                ])
                pet.toOne["owner"] = .some(person)
                owned.append(pet)
                pets.append(pet)
            }
            person.toMany["pets"] = owned
            if Int.random(in: 0..<5, using: &generator) == 0 { toys.append(("Rex", pk)) }
            people.append(person)
        }
        for department in departments { department.toMany["people"] = [] }
        for tag in tags { tag.toMany["people"] = [] }
        for person in people {
            if let department = person.toOne["dept"] ?? nil { department.toMany["people", default: []].append(person) }
            for tag in person.toMany["tags"] ?? [] { tag.toMany["people", default: []].append(person) }
        }
        return try TestWorld(people: people, departments: departments, pets: pets, tags: tags, toys: toys)
    }
}

/// Random predicates over ``TestSchema``, as format strings with arguments.
struct RandomPredicateGenerator {
    var generator: SeededGenerator

    private mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &generator)! }
    private mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &generator) == 0 }

    mutating func predicate(depth: Int = 0) -> (String, [AttributeValue]) {
        if depth < 3 && chance(3) {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let (inner, arguments) = predicate(depth: depth + 1)
                return ("NOT (\(inner))", arguments)
            default:
                let (a, x) = predicate(depth: depth + 1), (b, y) = predicate(depth: depth + 1)
                return ("(\(a)) \(pick(["AND", "OR", "&&", "||"])) (\(b))", x + y)
            }
        }
        return comparison()
    }

    private mutating func options() -> String { pick(["", "", "[c]", "[d]", "[cd]"]) }

    private mutating func stringValue() -> AttributeValue {
        if chance(8) { return .null }
        let whole = pick(RandomWorld.names + RandomWorld.petNames + RandomWorld.tagNames.map { $0 }).map { AttributeValue.string($0) } ?? .null
        guard case .string(let text) = whole, text.count > 1, chance(2) else { return whole }
        // A piece of a name, so CONTAINS and friends match sometimes.
        let characters = Array(text)
        let start = Int.random(in: 0..<characters.count, using: &generator)
        let end = Int.random(in: start...characters.count, using: &generator)
        return .string(String(characters[start..<end]))
    }

    private mutating func stringTest(_ key: String) -> (String, [AttributeValue]) {
        let op = pick(["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "CONTAINS", "LIKE", "MATCHES", "IN"])
        switch op {
        case "LIKE":
            let pattern = pick(["*a*", "?o?", "A*", "*E", "caf?", "*", "b?b", "*ö*", "l*e", "\\*"])
            return ("\(key) LIKE\(options()) %@", [.string(pattern)])
        case "MATCHES":
            let pattern = pick(["[A-Z].*", ".*e", "a.*", "(?i)bob", "[a-z]+", ".*[0-9]+"])
            return ("\(key) MATCHES\(options()) %@", [.string(pattern)])
        case "IN":
            return ("\(key) IN\(options()) %@", [.collection([stringValue(), stringValue(), stringValue()])])
        default:
            return ("\(key) \(op)\(options()) %@", [stringValue()])
        }
    }

    private mutating func numberValue() -> AttributeValue {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return .null
        case 1: return .double(Double(Int.random(in: -40...40, using: &generator)) / 4)
        case 2: return .decimal(Decimal(Int.random(in: -40...40, using: &generator)) / 2)
        default: return .integer(Int64.random(in: -10...100, using: &generator))
        }
    }

    private mutating func numberTest(_ key: String) -> (String, [AttributeValue]) {
        let op = pick(["==", "!=", "<", "<=", ">", ">=", "BETWEEN", "IN"])
        switch op {
        case "BETWEEN":
            let low = Int64.random(in: -10...60, using: &generator)
            return ("\(key) BETWEEN {%@, %@}", [.integer(low), .integer(low + Int64.random(in: 0...40, using: &generator))])
        case "IN":
            return ("\(key) IN %@", [.collection([numberValue(), numberValue(), numberValue()])])
        default:
            return ("\(key) \(op) %@", [numberValue()])
        }
    }

    mutating func comparison() -> (String, [AttributeValue]) {
        switch Int.random(in: 0..<17, using: &generator) {
        case 0, 1, 2: return stringTest("name")
        case 3: return numberTest("age")
        case 4: return numberTest("score")
        case 5: return numberTest("balance")
        case 6: return ("active == %@", [pick([.bool(true), .bool(false), .null, .integer(1)])])
        case 7:
            let date = AttributeValue.date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1000...1000, using: &generator)) * 1000))
            return ("born \(pick(["<", ">", "==", "!=", ">="])) %@", [pick([date, .null])])
        case 8: return stringTest("dept.name")
        case 9: return numberTest("dept.budget")
        case 10:
            let (test, arguments) = stringTest("pets.name")
            return (pick(["", "ANY ", "ALL ", "NONE "]) + test, arguments)
        case 11:
            let (test, arguments) = numberTest("pets.weight")
            return (pick(["", "ANY ", "ALL ", "NONE "]) + test, arguments)
        case 12: return numberTest(pick(["pets.@count", "tags.@count", "pets.@sum.weight", "pets.@avg.weight", "pets.@max.weight", "pets.@min.weight"]))
        case 13:
            let (test, arguments) = stringTest("tags.name")
            return (pick(["", "ANY ", "ALL ", "NONE "]) + test, arguments)
        case 14:
            let (test, arguments) = stringTest("$p.name")
            return ("SUBQUERY(pets, $p, \(test) OR $p.weight > %@).@count \(pick(["==", ">", "<"])) %@",
                    arguments + [.integer(Int64.random(in: 0...40, using: &generator)), .integer(Int64.random(in: 0...2, using: &generator))])
        case 15: return (pick(["dept == nil", "dept != nil", "name == nil", "TRUEPREDICATE", "FALSEPREDICATE"]), [])
        default:
            let (test, arguments) = stringTest("dept.people.name")
            return ("ANY " + test, arguments)
        }
    }

    mutating func sortDescriptors() -> [StoreSortDescriptor] {
        (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            StoreSortDescriptor(
                keyPath: pick(["name", "name", "age", "score", "born", "balance", "active", "dept.name", "dept.budget"]),
                ascending: Bool.random(using: &generator),
                comparison: pick(SortComparison.allCases))
        }
    }
}
