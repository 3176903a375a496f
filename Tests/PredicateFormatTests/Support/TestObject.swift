import Foundation
import PredicateFormat

/// An in-memory object with attributes and relationships, mirrored row for row in ``TestDatabase``.
final class TestObject: PredicateSubject, @unchecked Sendable {
    let entity: String
    let primaryKey: Int64
    var attributes: [String: AttributeValue]
    var toOne: [String: TestObject?] = [:]
    var toMany: [String: [TestObject]] = [:]

    init(_ entity: String, _ primaryKey: Int64, _ attributes: [String: AttributeValue]) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.attributes = attributes
    }

    var objectKey: Int64? { primaryKey }

    func value(forKey key: String) -> KeyValue {
        if let value = attributes[key] { return .attribute(value) }
        if let related = toOne[key] { return .toOne(related) }
        if let members = toMany[key] { return .toMany(members) }
        return .noSuchKey
    }
}

/// The schema every SQL test uses: people in departments, with pets (sharing
/// their table with toys, a different entity) and tags (many-to-many).
enum TestSchema {
    static let personAttributes: [String: AttributeValueKind] = [
        "name": .string, "age": .integer, "score": .double, "active": .bool, "born": .date,
        "balance": .decimal, "uid": .uuid, "homepage": .uri, "photo": .data,
    ]

    static let schema = SQLSchema([
        SQLEntityMapping(
            name: "Person", table: "ZPERSON", entityIDs: nil,
            attributes: Dictionary(uniqueKeysWithValues: personAttributes.map {
                ($0.key, SQLAttributeMapping(column: "Z" + $0.key.uppercased(), kind: $0.value))
            }),
            relationships: [
                "dept": SQLRelationshipMapping(destination: "Dept", kind: .toOne(foreignKeyColumn: "ZDEPT")),
                "pets": SQLRelationshipMapping(destination: "Pet", kind: .toManyInverse(destinationForeignKeyColumn: "ZOWNER")),
                "tags": SQLRelationshipMapping(destination: "Tag", kind: .manyToMany(joinTable: "Z_1TAGS", sourceColumn: "Z_1PEOPLE", destinationColumn: "Z_4TAGS")),
            ]),
        SQLEntityMapping(
            name: "Dept", table: "ZDEPT",
            attributes: ["name": SQLAttributeMapping(column: "ZNAME", kind: .string),
                         "budget": SQLAttributeMapping(column: "ZBUDGET", kind: .integer)],
            relationships: ["people": SQLRelationshipMapping(destination: "Person", kind: .toManyInverse(destinationForeignKeyColumn: "ZDEPT"))]),
        SQLEntityMapping(
            name: "Pet", table: "ZPET", entityIDs: [3],
            attributes: ["name": SQLAttributeMapping(column: "ZNAME", kind: .string),
                         "weight": SQLAttributeMapping(column: "ZWEIGHT", kind: .double)],
            relationships: ["owner": SQLRelationshipMapping(destination: "Person", kind: .toOne(foreignKeyColumn: "ZOWNER"))]),
        SQLEntityMapping(
            name: "Toy", table: "ZPET", entityIDs: [5],
            attributes: ["name": SQLAttributeMapping(column: "ZNAME", kind: .string)]),
        SQLEntityMapping(
            name: "Tag", table: "ZTAG",
            attributes: ["name": SQLAttributeMapping(column: "ZNAME", kind: .string)],
            relationships: ["people": SQLRelationshipMapping(destination: "Person", kind: .manyToMany(joinTable: "Z_1TAGS", sourceColumn: "Z_4TAGS", destinationColumn: "Z_1PEOPLE"))]),
    ])

    static let createTables = """
        CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZAGE INTEGER,
            ZSCORE FLOAT, ZACTIVE INTEGER, ZBORN TIMESTAMP, ZBALANCE DECIMAL, ZUID BLOB, ZHOMEPAGE VARCHAR, ZPHOTO BLOB, ZDEPT INTEGER);
        CREATE TABLE ZDEPT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZBUDGET INTEGER);
        CREATE TABLE ZPET (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZWEIGHT FLOAT, ZOWNER INTEGER);
        CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        CREATE TABLE Z_1TAGS (Z_1PEOPLE INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_1PEOPLE, Z_4TAGS));
        CREATE INDEX ZPERSON_ZNAME ON ZPERSON (ZNAME);
        CREATE INDEX ZPERSON_ZDEPT ON ZPERSON (ZDEPT);
        CREATE INDEX ZPET_ZOWNER ON ZPET (ZOWNER);
        CREATE INDEX Z_1TAGS_Z_4TAGS ON Z_1TAGS (Z_4TAGS, Z_1PEOPLE);
        """
}
