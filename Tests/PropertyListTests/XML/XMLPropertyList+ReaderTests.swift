import Foundation
import Testing
@testable import PropertyList

@Suite struct XMLPropertyListReaderTests {
    func read(_ text: String) throws -> PropertyListValue {
        try XMLPropertyListReader().read(Data(text.utf8))
    }

    func readError(_ text: String) -> PropertyListError? {
        #expect(throws: PropertyListError.self) { try read(text) }
    }

    @Test func readsEveryElementType() throws {
        let value = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>s</key><string>a &lt;b&gt; &amp; &apos;c&apos; &quot;d&quot; &#233; &#x1D11E;</string>
              <key>i</key><integer> -42 </integer>
              <key>h</key><integer>0x1F</integer>
              <key>u</key><integer>18446744073709551615</integer>
              <key>r</key><real>1.5e3</real>
              <key>t</key><true/><key>f</key><false></false>
              <key>d</key><date>2004-10-26T10:33:33Z</date>
              <key>b</key><data>
                PGJp bmFy
                eSBndW5rPg==
              </data>
              <key>a</key><array><string/><array/><dict/></array>
              <key>c</key><string><![CDATA[<raw> & stuff]]></string>
              <key>ref</key><dict><key>CF$UID</key><integer>7</integer></dict>
            </dict></plist>
            """)
        #expect(value["s"] == "a <b> & 'c' \"d\" é 𝄞")
        #expect(value["i"] == -42)
        #expect(value["h"] == 31)
        #expect(value["u"] == .integer(PropertyListInteger(UInt64.max)))
        #expect(value["r"] == 1500.0)
        #expect(value["t"] == true)
        #expect(value["f"] == false)
        #expect(value["d"] == .date(Date(timeIntervalSince1970: 1_098_786_813)))
        #expect(value["b"] == .data(Data("<binary gunk>".utf8)))
        #expect(value["a"] == ["", [], [:]])
        #expect(value["c"] == "<raw> & stuff")
        #expect(value["ref"] == .uid(PropertyListUID(7)))
    }

    @Test func keepsKeyOrderAndLastDuplicate() throws {
        let value = try read("<plist><dict><key>z</key><integer>1</integer><key>a</key><integer>2</integer><key>z</key><integer>3</integer></dict></plist>")
        #expect(value.dictionaryValue.map { Array($0.keys) } == ["z", "a"])
        #expect(value["z"] == 3)
    }

    /// Keys come from a cache keyed by their bytes; keys spelled with
    /// entities or CDATA, long keys and non-ASCII keys take other paths and
    /// must give the same strings and the same duplicate handling.
    @Test func keysReadAlikeWhateverTheirSpelling() throws {
        let long = String(repeating: "k", count: 80)
        let value = try read("""
            <plist><array>
            <dict><key>a&amp;b</key><integer>1</integer><key>\(long)</key><integer>2</integer><key>é</key><integer>3</integer></dict>
            <dict><key>a&amp;b</key><integer>4</integer><key>\(long)</key><integer>5</integer><key>é</key><integer>6</integer></dict>
            <dict><key><![CDATA[a&b]]></key><integer>7</integer><key>a&amp;b</key><integer>8</integer></dict>
            <dict><key>e\u{301}</key><integer>9</integer><key>é</key><integer>10</integer></dict>
            </array></plist>
            """)
        let dictionaries = try #require(value.arrayValue).compactMap(\.dictionaryValue)
        #expect(dictionaries.count == 4)
        #expect(PropertyListValue.dictionary(dictionaries[1]) == ["a&b": 4, long: 5, "é": 6])
        #expect(Array(dictionaries[1].keys) == ["a&b", long, "é"])
        // A repeated key keeps its first position and its last value.
        #expect(PropertyListValue.dictionary(dictionaries[2]) == ["a&b": 8])
        // Canonically equivalent keys are equal Swift strings, so they repeat too.
        #expect(dictionaries[3].count == 1)
        #expect(dictionaries[3].values.first == 10)
    }

    @Test func manyDistinctKeysSurviveCacheEviction() throws {
        let body = (0..<2_000).map { "<key>k\($0 % 700)</key><integer>\($0)</integer>" }.joined()
        let value = try read("<plist><dict>\(body)</dict></plist>")
        let entries = try #require(value.dictionaryValue)
        #expect(entries.count == 700)
        #expect(Array(entries.keys.prefix(3)) == ["k0", "k1", "k2"])
        #expect(entries["k5"] == .integer(PropertyListInteger(Int64(1_405))))
    }

    @Test func readsSpecialReals() throws {
        #expect(try read("<plist><real>nan</real></plist>").realValue?.isNaN == true)
        #expect(try read("<plist><real>+infinity</real></plist>") == .real(.infinity))
        #expect(try read("<plist><real>-Infinity</real></plist>") == .real(-.infinity))
        #expect(try read("<plist><real>-inf</real></plist>") == .real(-.infinity))
    }

    @Test func readsDatesAsProlepticGregorian() throws {
        // Values as Python computes them (proleptic Gregorian, as CF does).
        #expect(try read("<plist><date>0001-01-02T00:00:00Z</date></plist>") == .date(Date(timeIntervalSince1970: -62_135_510_400)))
        #expect(try read("<plist><date>1582-10-04T00:00:00Z</date></plist>") == .date(Date(timeIntervalSince1970: -12_220_243_200)))
        #expect(try read("<plist><date>2020-01-01Z</date></plist>") == .date(Date(timeIntervalSince1970: 1_577_836_800)))
        #expect(try read("<plist><date>2020-01-01T00:00:00.25Z</date></plist>") == .date(Date(timeIntervalSince1970: 1_577_836_800.25)))
        for bad in ["2020-13-01T00:00:00Z", "2021-02-29T00:00:00Z", "2020-01-01T00:00:00", "2020-01-01T00:00:00+02:00", "12345-01-01T00:00:00Z"] {
            #expect(readError("<plist><date>\(bad)</date></plist>")?.code == .invalidScalar, "\(bad)")
        }
    }

    @Test func integerRangeIsEnforced() {
        #expect(readError("<plist><integer>18446744073709551616</integer></plist>")?.code == .invalidScalar)
        #expect(readError("<plist><integer>-9223372036854775809</integer></plist>")?.code == .invalidScalar)
        #expect(readError("<plist><integer>12abc</integer></plist>")?.code == .invalidScalar)
        #expect(readError("<plist><integer/></plist>")?.code == .invalidScalar)
    }

    @Test func errorsCarryLineAndColumn() {
        let error = readError("<plist>\n<dict>\n\t<key>a</key>\n\t<strin>x</strin>\n</dict>\n</plist>")
        #expect(error?.code == .invalidObject)
        #expect(error?.location == .text(line: 4, column: 2))
        #expect(error?.description.contains("line 4, column 2") == true)
    }

    @Test func mismatchedAndUnclosedTagsAreSyntaxErrors() {
        #expect(readError("<plist><array><string>x</array></plist>")?.code == .syntax)
        #expect(readError("<plist><array><string>x</string>")?.code == .truncated)
        #expect(readError("<plist><dict><string>x</string></dict></plist>")?.code == .syntax)
        #expect(readError("<plist><string>a &bogus; b</string></plist>")?.code == .syntax)
        #expect(readError("<plist><data>!!!!</data></plist>")?.code == .invalidScalar)
        #expect(readError("")?.code == .syntax)
    }

    @Test func entityDeclarationsAreRefused() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <plist><string>&b;</string></plist>
            """
        #expect(readError(laughs)?.code == .syntax)
    }

    @Test func deepNestingIsRefusedAtTheLimit() throws {
        let depth = 100_000
        let deep = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(readError(deep)?.code == .depthLimitExceeded)
        let allowed = "<plist>" + String(repeating: "<array>", count: 511) + String(repeating: "</array>", count: 511) + "</plist>"
        #expect(throws: Never.self) { try read(allowed) }
    }

    @Test func objectLimitIsEnforced() {
        let many = "<plist><array>" + String(repeating: "<true/>", count: 100) + "</array></plist>"
        let error = #expect(throws: PropertyListError.self) {
            try XMLPropertyListReader(limits: .init(maximumObjectCount: 10)).read(Data(many.utf8))
        }
        #expect(error?.code == .objectLimitExceeded)
    }

    @Test func invalidUTF8IsAnEncodingError() {
        var bytes = Array("<plist><string>".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("</string></plist>".utf8)
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Data(bytes)) }
        #expect(error?.code == .invalidEncoding)
    }

    @Test func readsUTF16WithAndWithoutBOM() throws {
        let text = "<plist><string>héllo 𝄞</string></plist>"
        var bigEndian: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 { bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        var littleEndian: [UInt8] = []
        for unit in text.utf16 { littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try XMLPropertyListReader().read(Data(bigEndian)) == "héllo 𝄞")
        #expect(try XMLPropertyListReader().read(Data(littleEndian)) == "héllo 𝄞")
    }
}
