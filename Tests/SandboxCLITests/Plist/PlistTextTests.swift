import Foundation
import Testing
@testable import SandboxCLI
import PropertyList

@Suite struct PlistTextTests {
    @Test func printsNestedValuesLikePlutil() throws {
        let value: PropertyListValue = [
            "b": [1, "two", ["x": true]], "a": 2.5, "empty": [:], "list": [],
            "uid": .uid(PropertyListUID(3)), "when": .date(Date(timeIntervalSince1970: 0)),
        ]
        #expect(try PlistPrettyPrinter.render(value) == """
            {
              "a" => 2.5
              "b" => [
                0 => 1
                1 => "two"
                2 => {
                  "x" => true
                }
              ]
              "empty" => {
              }
              "list" => [
              ]
              "uid" => <CFKeyedArchiverUID>{value = 3}
              "when" => 1970-01-01 00:00:00 +0000
            }

            """)
    }

    @Test func refusesToExpandSharedValuesWithoutEnd() throws {
        // 2^12 leaves from 13 levels of one shared array, as a hostile binary file can hold (deeper).
        var value: PropertyListValue = "leaf"
        for _ in 0..<12 { value = [value, value] }
        #expect(PlistPrettyPrinter.expandedCount(of: value, upTo: 10) == 11)
        #expect(PlistPrettyPrinter.expandedCount(of: value, upTo: 1 << 14) == (1 << 13) - 1)
        #expect(throws: PropertyListError.self) { try PlistPrettyPrinter.render(value, maximumValueCount: 1000) }
        #expect(try PlistPrettyPrinter.render([value], maximumValueCount: 1 << 13).hasPrefix("[\n  0 => [\n"))
    }

    @Test func sortsKeysCaseInsensitivelyAndNumerically() throws {
        let value: PropertyListValue = ["item10": 1, "Item2": 2, "item1": 3, "B": 4, "a": 5]
        let keys = try PlistPrettyPrinter.render(value).split(separator: "\n").dropFirst().dropLast()
            .map { $0.split(separator: "\"")[1] }
        #expect(keys == ["a", "B", "item1", "Item2", "item10"])
    }

    @Test func abbreviatesLongData() {
        #expect(PlistPrettyPrinter.describe(Data()) == "{length = 0, bytes = 0x}")
        #expect(PlistPrettyPrinter.describe(Data([0, 1, 0xab, 0xff, 0x10])) == "{length = 5, bytes = 0x0001abff 10}")
        let long = Data(0..<100)
        #expect(PlistPrettyPrinter.describe(long)
            == "{length = 100, bytes = 0x00010203 04050607 08090a0b 0c0d0e0f ... 5c5d5e5f 60616263}")
        #expect(PlistPrettyPrinter.describe(Data(0..<24)).hasSuffix("14151617}"))
    }

    @Test func printsNumbersWithoutNeedlessFractions() {
        #expect(PlistTextFormatting.number(3.0) == "3")
        #expect(PlistTextFormatting.number(-0.5) == "-0.5")
        #expect(PlistTextFormatting.number(0.1) == "0.1")
        #expect(PlistTextFormatting.number(Float(0.1)) == "0.1")
        #expect(PlistTextFormatting.number(1e300) == "1e+300")
        #expect(PlistTextFormatting.number(Double.nan) == "nan")
        #expect(PlistTextFormatting.number(-Double.infinity) == "-inf")
    }

    @Test func writesRawText() throws {
        #expect(try PlistRawText.text(for: "plain\ntext") == "plain\ntext")
        #expect(try PlistRawText.text(for: .integer(PropertyListInteger(UInt64.max))) == "18446744073709551615")
        #expect(try PlistRawText.text(for: 0.25) == "0.25")
        #expect(try PlistRawText.text(for: false) == "false")
        #expect(try PlistRawText.text(for: .date(Date(timeIntervalSince1970: 1_098_786_813))) == "2004-10-26T10:33:33Z")
        #expect(try PlistRawText.text(for: .data(Data("hi".utf8))) == "aGk=")
        #expect(try PlistRawText.text(for: ["b": 1, "A": 2]) == "A\nb")
        #expect(try PlistRawText.text(for: [1, 2, 3]) == "3")
        #expect(try PlistRawText.text(for: .uid(PropertyListUID(9))) == "9")
        #expect(throws: PropertyListError.self) {
            try PlistRawText.text(for: .date(Date(timeIntervalSinceReferenceDate: .nan)))
        }
    }
}
