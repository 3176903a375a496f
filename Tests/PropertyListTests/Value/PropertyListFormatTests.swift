import Foundation
import Testing
@testable import PropertyList

/// Format detection from the first bytes of a file.
@Suite struct PropertyListFormatTests {
    func detect(_ text: String) -> PropertyListFormat { PropertyListFormat.detect(Array(text.utf8)) }

    @Test func binaryIsKnownByItsMagicEvenWhenBroken() {
        #expect(PropertyListFormat.detect(Array("bplist00".utf8) + [0xFF, 0x00]) == .binary)
        #expect(PropertyListFormat.detect(Array("bplist".utf8)) == .binary)
    }

    @Test func xmlIsKnownByItsMarkupInEveryEncoding() throws {
        #expect(detect("<?xml version=\"1.0\"?><plist/>") == .xml)
        #expect(detect("\n  <!DOCTYPE plist><plist/>") == .xml)
        #expect(detect("<!-- note --><plist/>") == .xml)
        #expect(detect("<plist version=\"1.0\"><true/></plist>") == .xml)
        let utf16 = try #require("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><true/></plist>".data(using: .utf16))
        #expect(PropertyListFormat.detect(utf16) == .xml)
    }

    @Test func openStepDataAndStringsFilesAreNotXML() {
        #expect(detect("<0a1b 2c3d>") == .openStep)
        #expect(detect("<>") == .openStep)
        #expect(detect("{ key = value; }") == .openStep)
        #expect(detect("\"greeting\" = \"hello\";") == .openStep)
        #expect(detect("(a, b)") == .openStep)
        #expect(detect("") == .openStep)
    }

    @Test func jsonIsKnownByItsBracketOrFirstColon() {
        #expect(detect("[1, 2]") == .json)
        #expect(detect("{\"key\": 1}") == .json)
        #expect(detect("{ \"key\" = 1; }") == .openStep)
    }
}
