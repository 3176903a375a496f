import Foundation
import PredicateFormat

/// The six people the grammar corpus is evaluated against.
///
/// | pk | name  | age | score | active | born | balance | dept  | pets (weight)        | tags              |
/// |----|-------|-----|-------|--------|------|---------|-------|----------------------|-------------------|
/// | 1  | Ann   | 34  | 4.5   | YES    | 1000 | 10.5    | Sales | Rex 12, Tom 4        | swift, ios        |
/// | 2  | Bob   | 27  | 3.0   | NO     | 2000 | 3       | Sales | — (a toy "Ball")     | swift             |
/// | 3  | ÄPFEL | 45  | nil   | YES    | nil  | nil     | R&D   | Fifi nil             | —                 |
/// | 4  | café  | nil | 2.25  | NO     | 500  | 0.25    | nil   | Max 30               | ios, café         |
/// | 5  | Zoë   | 19  | 5.0   | YES    | 3000 | 100     | R&D   | Bub 1, Rex 8         | swift, ios, linux |
/// | 6  | nil   | 60  | 1.5   | nil    | 4000 | -2      | Ops   | —                    | linux             |
///
/// Dates are seconds since 2001. Departments: Sales (budget 1000), R&D (5000), Ops (nil).
enum SampleWorld {
    static let annID = UUID(uuidString: "00000000-0000-0000-0000-0000000000A1")!
    static let bobID = UUID(uuidString: "00000000-0000-0000-0000-0000000000B2")!

    static func make() throws -> TestWorld {
        let sales = TestObject("Dept", 1, ["name": .string("Sales"), "budget": .integer(1000)])
        let research = TestObject("Dept", 2, ["name": .string("R&D"), "budget": .integer(5000)])
        let ops = TestObject("Dept", 3, ["name": .string("Ops"), "budget": .null])
        let tagNames = ["swift", "ios", "linux", "café"]
        let tags = tagNames.enumerated().map { TestObject("Tag", Int64($0.offset + 1), ["name": .string($0.element)]) }
        func tag(_ name: String) -> TestObject { tags[tagNames.firstIndex(of: name) ?? 0] }
        func date(_ seconds: Double) -> AttributeValue { .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        func person(_ pk: Int64, _ name: AttributeValue, _ age: AttributeValue, _ score: AttributeValue, _ active: AttributeValue,
                    _ born: AttributeValue, _ balance: AttributeValue, _ dept: TestObject?, _ tagList: [String]) -> TestObject {
            let object = TestObject("Person", pk, [
                "name": name, "age": age, "score": score, "active": active, "born": born, "balance": balance,
                "uid": pk == 1 ? .uuid(annID) : pk == 2 ? .uuid(bobID) : .null,
                "homepage": pk == 1 ? .uri(URL(string: "https://ann.example/home")!) : pk == 5 ? .uri(URL(string: "http://zoe.example")!) : .null,
                "photo": pk == 1 ? .data(Data([1, 2, 3])) : .null,
            ])
            object.toOne["dept"] = .some(dept)
            object.toMany["tags"] = tagList.map(tag)
            return object
        }
        let people = [
            person(1, .string("Ann"), .integer(34), .double(4.5), .bool(true), date(1000), .decimal(Decimal(string: "10.5")!), sales, ["swift", "ios"]),
            person(2, .string("Bob"), .integer(27), .double(3.0), .bool(false), date(2000), .decimal(3), sales, ["swift"]),
            person(3, .string("ÄPFEL"), .integer(45), .null, .bool(true), .null, .null, research, []),
            person(4, .string("café"), .null, .double(2.25), .bool(false), date(500), .decimal(Decimal(string: "0.25")!), nil, ["ios", "café"]),
            person(5, .string("Zoë"), .integer(19), .double(5.0), .bool(true), date(3000), .decimal(100), research, ["swift", "ios", "linux"]),
            person(6, .null, .integer(60), .double(1.5), .null, date(4000), .decimal(-2), ops, ["linux"]),
        ]
        let petRows: [(Int64, String, AttributeValue, Int)] = [
            (1, "Rex", .double(12), 0), (2, "Tom", .double(4), 0), (3, "Fifi", .null, 2),
            (4, "Max", .double(30), 3), (5, "Bub", .double(1), 4), (6, "Rex", .double(8), 4),
        ]
        var pets: [TestObject] = []
        for (pk, name, weight, owner) in petRows {
            let pet = TestObject("Pet", pk, ["name": .string(name), "weight": weight])
            pet.toOne["owner"] = .some(people[owner])
            people[owner].toMany["pets", default: []].append(pet)
            pets.append(pet)
        }
        for person in people where person.toMany["pets"] == nil { person.toMany["pets"] = [] }
        for department in [sales, research, ops] {
            department.toMany["people"] = people.filter { ($0.toOne["dept"] ?? nil) === department }
        }
        for tag in tags {
            tag.toMany["people"] = people.filter { $0.toMany["tags"]?.contains { $0 === tag } ?? false }
        }
        return try TestWorld(people: people, departments: [sales, research, ops], pets: pets, tags: tags, toys: [("Ball", 2), ("Bear", 1)])
    }
}
