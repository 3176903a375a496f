import Foundation
import GRDB
import PredicateFormat
import Testing

@Suite struct AttributeValueDatabaseTests {
    @Test func coreDataStorage() {
        #expect(AttributeValue.bool(true).databaseValue == 1.databaseValue)
        #expect(AttributeValue.date(Date(timeIntervalSinceReferenceDate: 12.5)).databaseValue == 12.5.databaseValue)
        #expect(AttributeValue.uri(URL(string: "https://a.example/b")!).databaseValue == "https://a.example/b".databaseValue)
        let uuid = UUID(uuidString: "01020304-0506-0708-090A-0B0C0D0E0F10")!
        #expect(AttributeValue.uuid(uuid).databaseValue == Data((1...16).map(UInt8.init)).databaseValue)
        #expect(AttributeValue.decimal(Decimal(string: "2.5")!).databaseValue == 2.5.databaseValue)
        #expect(AttributeValue.decimal(7).databaseValue == 7.databaseValue)
        #expect(AttributeValue.collection([.integer(1)]).databaseValue == .null)
    }

    @Test(arguments: [
        (AttributeValue.integer(-3), AttributeValueKind.integer), (.double(2.5), .double), (.decimal(Decimal(string: "2.5")!), .decimal),
        (.string("é"), .string), (.bool(false), .bool), (.date(Date(timeIntervalSinceReferenceDate: -7.25)), .date),
        (.data(Data([0, 1])), .data), (.uuid(UUID()), .uuid), (.uri(URL(string: "file:///a%20b")!), .uri), (.null, .string),
    ])
    func roundTrip(_ value: AttributeValue, _ kind: AttributeValueKind) {
        #expect(AttributeValue(databaseValue: value.databaseValue, kind: kind) == value)
    }
}
