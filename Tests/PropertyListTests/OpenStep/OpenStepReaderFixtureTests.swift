import Foundation
import Testing
@testable import PropertyList

@Suite struct OpenStepReaderFixtureTests {
    @Test func fixturesAreFound() {
        #expect(OpenStepFixtures.names.count >= 19)
    }

    @Test(arguments: OpenStepFixtures.names)
    func everyFixtureDecodes(_ name: String) throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data(name))
        #expect(value.dictionaryValue != nil || value.arrayValue != nil)
    }

    @Test func dataAndEscapes() throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("ddplist_test1-ascii.plist"))
        #expect(value["keyA"] == "valueA")
        #expect(value["key&B"] == "value&B")
        #expect(value["date"] == "2011-11-28T09:21:30Z")
        #expect(value["data"] == .data(Data([0, 0, 0, 4, 0x10, 0x41, 0x08, 0x20, 0x82])))
        #expect(value["array"] == ["YES", "NO", "87", "3.14159"])
    }

    @Test func gnustepTypedScalars() throws {
        let date = Date(timeIntervalSince1970: 1_322_472_090) // 2011-11-28 09:21:30 UTC
        for name in ["ddplist_test1-ascii-gnustep.plist", "ddplist_test1-ascii-gnustep-base64.plist"] {
            let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data(name))
            #expect(value["date"] == .date(date))
            #expect(value["array"] == [true, false, 87, .real(3.14159)])
        }
        let base64 = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("ddplist_test1-ascii-gnustep-base64.plist"))
        #expect(base64["data"] == .data(Data([0xAA, 0xAA, 0xBB, 0xBB, 0xCC, 0xCC])))
    }

    @Test func multilineLayout() throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("ddplist_test1-ascii-multiline-handling.plist"))
        #expect(value["key&B"] == "Multi\n\t   line\n\t   string")
        #expect(value["data"] == .data(Data([0, 0, 0, 4, 0x10, 0x41, 0x08, 0x20, 0x82])))
        #expect(value["array"] == ["YES", "NO", "87", "3.14159"])
    }

    @Test func allUnicodeEncodingsAgree() throws {
        let reference = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("ddplist_test-ascii-utf-8.plist"))
        #expect(reference["not_quoted"] == "クオート無し")
        #expect(reference["with_escapes"] == "\"\\\":\n拡張文字ｷﾀｱｱｱ")
        // Lower-case \u is not an escape, as in CF.
        #expect(reference["with_u_escapes"] == "u0020u5e78")
        for suffix in ["utf-16be", "utf-16le", "utf-32be", "utf-32le"] {
            let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("ddplist_test-ascii-\(suffix).plist"))
            #expect(value == reference, "\(suffix)")
        }
    }

    @Test func stringsFile() throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("libplist_test.strings"))
        #expect(value.dictionaryValue?.count == 12)
        #expect(value["STRINGS_ENTRY"] == "Whatever")
        #expect(value["BAR"] == "Foo")
        #expect(value["ENTRY1"] == "日本語")
        #expect(value.dictionaryValue?.keys.first == "STRINGS_ENTRY")
    }

    @Test func commentsAndTopLevelArray() throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("libplist_o3.ostep"))
        #expect(value == [
            ["AFirstKey": "A First Value", "ASecondKey": "A Second Value"],
            ["CFirstKey": "C First Value", "CSecondKey": "C Second Corrected Value"],
        ])
    }

    @Test func unicodeEscapeFixtureMatchesScalars() throws {
        // The fixture lists \U escapes of 1-4 digits for every BMP scalar except surrogates.
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("sf_test_oldStylePlist_getSlashedChars_unicode.plist"))
        let elements = try #require(value.arrayValue)
        #expect(elements.first == "\u{0}")
        #expect(elements.last == "\u{FFFF}")
        #expect(elements.allSatisfy { $0.stringValue?.unicodeScalars.count == 1 })
    }

    @Test func octalEscapeFixtureUsesNeXTSTEP() throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("sf_test_oldStylePlist_getSlashedChars_octal.plist"))
        let elements = try #require(value.arrayValue)
        #expect(elements.prefix(3) == ["\u{0}", "\u{0}", "\u{0}"])
        #expect(elements.contains("A")) // \101
        #expect(elements.last == "ÿ") // \775 keeps its low 8 bits, 0xFD: NeXTSTEP ÿ
        #expect(elements.allSatisfy { $0.stringValue?.unicodeScalars.count == 1 })
    }

    @Test func xcodeProject() throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("rustplist_netnewswire.pbxproj"))
        #expect(value["archiveVersion"] == "1")
        #expect(value["objectVersion"] == "46")
        #expect((value["objects"]?.dictionaryValue?.count ?? 0) > 100)
    }
}
