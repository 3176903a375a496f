import Foundation
import TestSupport
import Testing
@testable import PropertyList

/// The validating pass behind `sandbox plist -lint` for XML accepts exactly
/// what the decoder reads and refuses everything else with the decoder's
/// error: same code, same message, same line and column.
@Suite struct XMLPropertyListValidatorTests {
    /// The decoder's and the validator's verdicts on `data`: nil when it is
    /// accepted, else the error's full text.
    static func verdicts(_ data: Data, limits: PropertyListLimits = .default) -> (decoder: String?, validator: String?) {
        func verdict(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch { return "\(type(of: error)): \(error)" }
        }
        let reader = XMLPropertyListReader(limits: limits)
        return (verdict { _ = try reader.read(data) }, verdict { try reader.validate(data) })
    }

    /// Checks agreement; returns whether the decoder accepted `data`.
    @discardableResult
    static func expectAgreement(_ data: Data, limits: PropertyListLimits = .default, _ name: String,
                                sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (decoder, validator) = verdicts(data, limits: limits)
        #expect(decoder == validator, "\(name): decoder \(decoder ?? "accepts"), validator \(validator ?? "accepts")",
                sourceLocation: sourceLocation)
        return decoder == nil
    }

    static func xml(_ text: String) -> Data { Data(text.utf8) }

    static func plist(_ body: String) -> Data {
        xml("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n")
    }

    /// Every file of the shared corpus, whatever its format (a binary file
    /// is refused by both at its first byte), and each XML one again in
    /// UTF-16 both ways.
    @Test func theValidatorAndTheDecoderAgreeOnTheSharedCorpus() throws {
        var xmlFiles = 0, accepted = 0
        for folder in ["xml", "malformed", "keyed_archive", "misc", "bplist", "openstep"] {
            for file in SharedFixtures.files(in: folder) {
                let data = try Data(contentsOf: file)
                if Self.expectAgreement(data, "\(folder)/\(file.lastPathComponent)") { accepted += 1 }
                guard PropertyListFormat.detect(data) == .xml else { continue }
                xmlFiles += 1
                guard let text = String(data: data, encoding: .utf8) else { continue }
                for encoding: String.Encoding in [.utf16LittleEndian, .utf16BigEndian, .utf16] {
                    guard let transcoded = text.data(using: encoding) else { continue }
                    Self.expectAgreement(transcoded, "\(folder)/\(file.lastPathComponent) in \(encoding)")
                }
            }
        }
        try #require(xmlFiles >= 45, "the shared corpus is missing (\(xmlFiles) XML files)")
        #expect(accepted >= 40)
    }

    @Test func theyAgreeOnEveryTruncationAndSingleByteCorruption() throws {
        for name in ["xml/cpython_TESTDATA_xml.plist", "xml/libplist_entities.plist",
                     "xml/ddplist_test-xml-utf-16le-bom.plist", "xml/libplist_cdata.plist", "xml/rustplist_xml.plist"] {
            let data = try SharedFixtures.data(name)
            DamagedCopies.forEach(of: data, named: name, replacements: { byte in
                [0x00, 0xFF, 0xC3, 0x80, 0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "/"),
                 UInt8(ascii: ";"), UInt8(ascii: "x"), UInt8(ascii: "["), byte ^ 0x01, byte &+ 1].filter { $0 != byte }
            }) { Self.expectAgreement($0, $1) }
        }
    }

    @Test func theyAgreeOnRandomDocumentsWithRandomDamage() throws {
        var generator = SeededGenerator(seed: 14)
        for round in 0..<300 {
            var random = RandomPropertyList(seed: UInt64(round), profile: .xml)
            var data = try random.value().encoded(as: .xml)
            #expect(Self.expectAgreement(data, "random document \(round)"))
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                data[Int.random(in: 0..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            Self.expectAgreement(data, "random document \(round), damaged")
            // Cuts inside the document, and a byte removed.
            let cut = Int.random(in: 0..<data.count, using: &generator)
            Self.expectAgreement(data.prefix(cut), "random document \(round), cut at \(cut)")
            var shorter = data
            shorter.remove(at: Int.random(in: 0..<data.count, using: &generator))
            Self.expectAgreement(shorter, "random document \(round), a byte removed")
        }
    }

    @Test func theyAgreeOnTheHostileShapes() throws {
        let levels = 100_000
        var cases: [(String, Data, PropertyListLimits)] = [
            ("100,000 nested arrays", Self.plist(String(repeating: "<array>", count: levels) + String(repeating: "</array>", count: levels)), .default),
            ("100,000 nested dictionaries", Self.plist(String(repeating: "<dict><key>k</key>", count: levels)), .default),
            ("100,000 unclosed arrays", Self.xml(String(repeating: "<array>", count: levels)), .default),
            ("shallow depth limit", Self.plist("<array><array><array/></array></array>"), .init(maximumDepth: 2)),
            ("object limit", Self.plist("<array><true/><false/></array>"), .init(maximumObjectCount: 2)),
            ("input size limit", Self.plist("<true/>"), .init(maximumInputSize: 10)),
            ("billion laughs", Self.xml("""
                <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
                <plist><string>&b;&b;&b;</string></plist>
                """), .default),
            ("DOCTYPE with a public id", Self.xml("""
                <?xml version="1.0"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist><string>x</string></plist>
                """), .default),
            ("unterminated DOCTYPE", Self.xml("<!DOCTYPE plist \"abc"), .default),
        ]
        let bodies: [(String, String)] = [
            ("huge integer", "<integer>123456789012345678901234567890</integer>"),
            ("2^64", "<integer>18446744073709551616</integer>"), ("2^64-1", "<integer>18446744073709551615</integer>"),
            ("below -2^63", "<integer>-9223372036854775809</integer>"), ("-2^63", "<integer>-9223372036854775808</integer>"),
            ("hex integer", "<integer>0xFFFFFFFFFFFFFFFF</integer>"), ("hex too big", "<integer>0x10000000000000000</integer>"),
            ("sign and space", "<integer>- 5</integer>"), ("bare sign", "<integer>-</integer>"), ("empty integer", "<integer/>"),
            ("integer with markup", "<integer>1<!-- x -->2</integer>"), ("integer with entity", "<integer>&#49;</integer>"),
            ("real", "<real>1.5e+3</real>"), ("huge real", "<real>1e999</real>"), ("long real", "<real>" + String(repeating: "9", count: 400) + ".5</real>"),
            ("bad real", "<real>1e</real>"), ("real dots", "<real>1.2.3</real>"), ("nan", "<real>NaN</real>"), ("-infinity", "<real>-Infinity</real>"),
            ("real hex", "<real>0x1p3</real>"), ("real just a dot", "<real>.</real>"), ("real leading dot", "<real>.5</real>"),
            ("date", "<date>2020-01-01T10:00:00Z</date>"), ("short date", "<date>2020-01Z</date>"), ("fraction", "<date>2020-01-01T10:00:00.25Z</date>"),
            ("bad date", "<date>2020-13-01T00:00:00Z</date>"), ("February 30", "<date>2021-02-30T00:00:00Z</date>"), ("date no Z", "<date>2020-01-01</date>"),
            ("data", "<data>AAEC\n\tAw==</data>"), ("bad base64", "<data>AB=C</data>"), ("too much padding", "<data>A===</data>"),
            ("one base64 char", "<data>A</data>"), ("data with markup", "<data>AA<b/>AA</data>"), ("empty data", "<data/>"),
            ("entities", "<string>&lt;&gt;&amp;&apos;&quot;&#65;&#x1F600;</string>"), ("unknown entity", "<string>&foo;</string>"),
            ("NUL reference", "<string>&#0;</string>"), ("surrogate reference", "<string>&#xD800;</string>"), ("beyond Unicode", "<string>&#x110000;</string>"),
            ("huge reference", "<string>&#99999999999999;</string>"), ("unterminated entity", "<string>&lt</string>"), ("long entity", "<string>&abcdefghijklmnop;</string>"),
            ("empty reference", "<string>&#;</string>"), ("hex letters in decimal", "<string>&#1F;</string>"),
            ("CDATA", "<string><![CDATA[<&>]]></string>"), ("unterminated CDATA", "<string><![CDATA[abc</string>"),
            ("comment in text", "<string>a<!-- b -->c</string>"), ("element in text", "<string>a<b>c</b></string>"),
            ("UTF-8 split by a comment", "<string>\u{1}</string>"),
            ("key outside a dictionary", "<key>a</key>"), ("unknown element", "<foo/>"), ("plist in plist", "<plist/>"),
            ("repeated keys", "<dict><key>a</key><true/><key>a</key><false/></dict>"),
            ("CF$UID", "<dict><key>CF$UID</key><integer>7</integer></dict>"), ("CF$UID negative", "<dict><key>CF$UID</key><integer>-7</integer></dict>"),
            ("key without value", "<dict><key>a</key></dict>"), ("value without key", "<dict><true/></dict>"),
            ("text in dictionary", "<dict>text</dict>"), ("empty key", "<dict><key/><true/></dict>"),
            ("key with entity", "<dict><key>a&amp;b</key><true/></dict>"), ("key with bad entity", "<dict><key>a&b;</key><true/></dict>"),
            ("mismatched end tag", "<array></dict>"), ("end tag with space", "<array></array >"), ("true with content", "<true>x</true>"),
            ("true with comment", "<true><!-- c --></true>"), ("attributes", "<string a='1' b=\"2\">x</string>"),
            ("unquoted attribute", "<string a=1>x</string>"), ("attribute with <", "<string a='<'>x</string>"), ("nameless element", "< />"),
            ("bad empty tag", "<true/ >"), ("two roots", "<true/><false/>"), ("processing instruction", "<?pi x?><true/>"),
            ("unterminated comment", "<!-- x"), ("text after root", "<true/>x"),
        ]
        for (name, body) in bodies { cases.append((name, Self.plist(body), .default)) }
        // Truncated inside a dictionary right after a key: the message names the key.
        cases.append(("truncated after a key", Self.xml("<plist><dict><key>name &amp; more</key>"), .default))
        cases.append(("truncated after an empty key", Self.xml("<plist><dict><key/>  "), .default))
        cases.append(("truncated after a cached key", Self.xml("<plist><dict><key>plain</key><!-- c -->"), .default))
        cases.append(("bare value", Self.xml("<string>bare</string>"), .default))
        cases.append(("empty plist", Self.xml("<plist/>"), .default))
        cases.append(("nothing", Data(), .default))
        cases.append(("UTF-8 split by a comment", Self.xml("<plist><string>\u{1}</string></plist>").replacing(Data([1]), with: Data([0xC3, 0x3C, 0x21, 0x2D, 0x2D, 0x2D, 0x2D, 0x3E, 0xA9])), .default))
        cases.append(("invalid UTF-8 in a key", Self.xml("<plist><dict><key>\u{1}</key><true/></dict></plist>").replacing(Data([1]), with: Data([0xC3, 0x28])), .default))
        cases.append(("invalid UTF-8 in a string", Self.xml("<plist><string>\u{1}</string></plist>").replacing(Data([1]), with: Data([0xED, 0xA0, 0x80])), .default))
        cases.append(("odd UTF-16", Data([0xFF, 0xFE, 0x3C, 0x00, 0x70]), .default))
        cases.append(("unpaired UTF-16 surrogate", Data([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x41, 0x00]), .default))
        for (name, data, limits) in cases { Self.expectAgreement(data, limits: limits, name) }
    }

    /// Deep nesting fails at the depth limit, long before the thread's stack.
    @Test func deepNestingFailsAtTheDepthLimit() throws {
        let levels = 100_000
        let data = Self.plist(String(repeating: "<array>", count: levels) + String(repeating: "</array>", count: levels))
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().validate(data) }
        #expect(error?.code == .depthLimitExceeded)
        let nested = Self.plist(String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100))
        try XMLPropertyListReader().validate(nested)
    }

    /// Documents of a megabyte or more with a root dictionary are decoded on
    /// two threads; the validator walks them on one and must agree.
    @Test func largeDocumentsThatTheDecoderSplitsOverTwoThreadsAgree() throws {
        let count = 40_000
        let dictionary = PropertyListValue.dictionary(.init(uniqueKeysWithValues: (0..<count).map {
            ("key number \($0)", PropertyListValue.array([.string("value \($0)"), .integer(PropertyListInteger(Int64($0)))]))
        }))
        let data = try dictionary.encoded(as: .xml)
        #expect(data.count > XMLPropertyListReader.parallelByteThreshold)
        Self.expectAgreement(data, "large document")
        try XMLPropertyListReader().validate(data)
        var generator = SeededGenerator(seed: UInt64(data.count))
        for round in 0..<8 {
            var damaged = data
            damaged[Int.random(in: 100..<(data.count - 32), using: &generator)] = [0x00, UInt8(ascii: "<"), UInt8(ascii: "&"), 0xFF][round % 4]
            Self.expectAgreement(damaged, "large document, damage \(round)")
        }
        Self.expectAgreement(data.prefix(data.count / 2 + 7), "large document cut in the middle")
    }
}
