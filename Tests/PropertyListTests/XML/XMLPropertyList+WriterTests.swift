import Foundation
import Testing
@testable import PropertyList

@Suite struct XMLPropertyListWriterTests {
    func write(_ value: PropertyListValue) throws -> String {
        String(decoding: try XMLPropertyListWriter().write(value), as: UTF8.self)
    }

    func body(_ value: PropertyListValue) throws -> String {
        let text = try write(value)
        let start = try #require(text.range(of: "<plist version=\"1.0\">\n"))
        let end = try #require(text.range(of: "</plist>\n", options: .backwards))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test func usesCFLayout() throws {
        #expect(try body(["a": [true, false], "b": [:], "c": []]) == """
            <dict>
            \t<key>a</key>
            \t<array>
            \t\t<true/>
            \t\t<false/>
            \t</array>
            \t<key>b</key>
            \t<dict/>
            \t<key>c</key>
            \t<array/>
            </dict>

            """)
    }

    @Test func base64LinesShrinkWithIndent() throws {
        let data = PropertyListValue.data(Data(repeating: 0xAB, count: 200))
        let lines = try body([[data]]).split(separator: "\n")
        // The <data> element sits at indent 2: lines of 76 − 16 = 60 characters after two tabs.
        let base64Lines = lines.filter { !$0.contains("<") }
        #expect(base64Lines.first?.count == 2 + 60)
        #expect(base64Lines.allSatisfy { $0.hasPrefix("\t\t") })
    }

    @Test func writesRealsShortestAndSpecialValuesAsCF() throws {
        #expect(try body(0.1) == "<real>0.1</real>\n")
        #expect(try body(1.0) == "<real>1</real>\n")
        #expect(try body(-0.0) == "<real>-0</real>\n")
        #expect(try body(1e300) == "<real>1e+300</real>\n")
        #expect(try body(.real(.nan)) == "<real>nan</real>\n")
        #expect(try body(.real(.infinity)) == "<real>+infinity</real>\n")
        #expect(try body(.real(-.infinity)) == "<real>-infinity</real>\n")
    }

    @Test func writesDatesFlooredToTheSecond() throws {
        #expect(try body(.date(Date(timeIntervalSince1970: -0.5))) == "<date>1969-12-31T23:59:59Z</date>\n")
        #expect(try body(.date(Date(timeIntervalSince1970: -62_135_596_800))) == "<date>0001-01-01T00:00:00Z</date>\n")
        #expect(try body(.date(Date(timeIntervalSince1970: -62_198_755_200))) == "<date>-001-01-01T00:00:00Z</date>\n")
    }

    @Test func escapesMarkupAndCarriageReturns() throws {
        #expect(try body("a<b>&c\r\n\"'") == "<string>a&lt;b&gt;&amp;c&#13;\n\"'</string>\n")
    }

    /// Escaping skips eight plain bytes at a time: every character that
    /// needs care, at every place in and across those eight-byte words, is
    /// still escaped or refused as one byte at a time would.
    @Test func escapesAtEveryPlaceInALongString() throws {
        let escaped: [(Character, String)] = [("<", "&lt;"), (">", "&gt;"), ("&", "&amp;"), ("\r", "&#13;"),
                                              ("\t", "\t"), ("\n", "\n"), ("\u{FFFD}", "\u{FFFD}"), ("é", "é"), ("?", "?")]
        for length in [7, 8, 9, 16, 23, 24, 25] {
            for place in 0..<length {
                for (character, text) in escaped {
                    var plain = Array(repeating: Character("a"), count: length)
                    plain[place] = character
                    let expected = String(plain).replacingOccurrences(of: String(character), with: text)
                    #expect(try body(.string(String(plain))) == "<string>\(expected)</string>\n", "\(length), \(place)")
                }
                for refused: Character in ["\u{1}", "\u{1F}", "\u{FFFE}", "\u{FFFF}"] {
                    var plain = Array(repeating: Character("b"), count: length)
                    plain[place] = refused
                    let error = #expect(throws: PropertyListError.self) { try write(.string(String(plain))) }
                    #expect(error?.code == .unsupportedValue, "\(length), \(place)")
                }
            }
        }
    }

    @Test func refusesCharactersXMLCannotHold() throws {
        let error = #expect(throws: PropertyListError.self) { try write(["key": ["ok", "bell\u{7}"]]) }
        #expect(error?.code == .unsupportedValue)
        #expect(error?.location == .keyPath("key.1"))
    }

    @Test func errorsNameTheNestedKeyPath() throws {
        let deep = #expect(throws: PropertyListError.self) { try write(["a": [["ok": 1], ["b": ["bell\u{7}"]]]]) }
        #expect(deep?.location == .keyPath("a.1.b.0"))
        let badKey = #expect(throws: PropertyListError.self) { try write(["a": ["x\u{FFFE}": 1]]) }
        #expect(badKey?.location == .keyPath("a.x\u{FFFE}"))
        let root = #expect(throws: PropertyListError.self) { try write("bell\u{7}") }
        #expect(root?.location == .keyPath(""))
    }

    @Test func writesUIDsAsCFDictionaries() throws {
        #expect(try body(.uid(PropertyListUID(3))) == "<dict>\n\t<key>CF$UID</key>\n\t<integer>3</integer>\n</dict>\n")
        #expect(try XMLPropertyListReader().read(XMLPropertyListWriter().write(.uid(PropertyListUID(3)))) == .uid(PropertyListUID(3)))
    }

    @Test func sortsKeysByUTF16OnRequest() throws {
        let value: PropertyListValue = ["b": 1, "Å": 2, "a": 3, "B": 4]
        let sorted = try value.encoded(as: .xml, options: .init(sortsKeys: true))
        let keys = try XMLPropertyListReader().read(sorted).dictionaryValue.map { Array($0.keys) }
        #expect(keys == ["B", "a", "b", "Å"])
    }

    @Test func refusesDatesWithoutCalendarForm() {
        let error = #expect(throws: PropertyListError.self) { try write(.date(Date(timeIntervalSinceReferenceDate: .infinity))) }
        #expect(error?.code == .unsupportedValue)
    }
}
