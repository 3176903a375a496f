import Foundation
import OrderedCollections
import Testing
@testable import PropertyList

/// CPython's TESTDATA: one dictionary written by Cocoa (through PyObjC) as
/// XML and as binary. Apple-written ground truth for both formats.
@Suite struct CPythonTestDataTests {
    static let gunk = Data("<lots of binary gunk>\0\u{1}\u{2}\u{3}".utf8)

    /// The value of `TestPlistlib._create()` in CPython's test_plistlib.py.
    static let expected: PropertyListValue = [
        "aBigInt": .integer(PropertyListInteger(Int64.max - 43)), // 2**63 - 44
        "aBigInt2": .integer(PropertyListInteger((UInt64(1) << 63) + 44)),
        "aDate": .date(Date(timeIntervalSince1970: 1_098_786_813)), // 2004-10-26T10:33:33Z
        "aDict": [
            "aFalseValue": false,
            "aTrueValue": true,
            "aUnicodeValue": "Mässig, Maß",
            "anotherString": "<hello & 'hi' there!>",
            "deeperDict": ["a": 17, "b": 32.5, "c": [1, 2, "text"]],
        ],
        "aFloat": 0.5,
        "aList": ["A", "B", 12, 32.5, [1, 2, 3]],
        "aNegativeBigInt": -80_000_000_000,
        "aNegativeInt": -5,
        "aString": "Doodah",
        "anEmptyDict": [:],
        "anEmptyList": [],
        "anInt": 728,
        "nestedData": [.data(Data(repeatElement(gunk, count: 10).joined()))],
        "someData": .data(Data("<binary gunk>".utf8)),
        "someMoreData": .data(Data(repeatElement(gunk, count: 10).joined())),
        "Åbenraa": "That was a unicode key.",
    ]

    @Test func xmlDecodesToDocumentedValue() throws {
        let value = try PropertyListValue(data: SharedFixtures.data("xml/cpython_TESTDATA_xml.plist"))
        #expect(value.sortingKeys() == Self.expected.sortingKeys())
    }

    @Test func binaryDecodesToDocumentedValue() throws {
        let value = try PropertyListValue(data: SharedFixtures.data("bplist/cpython_TESTDATA_binary.plist"))
        #expect(value.sortingKeys() == Self.expected.sortingKeys())
    }

    @Test func xmlWriterReproducesCocoaBytes() throws {
        let original = try SharedFixtures.data("xml/cpython_TESTDATA_xml.plist")
        let written = try PropertyListValue(data: original).encoded(as: .xml, options: .init(sortsKeys: true))
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: original, as: UTF8.self))
    }

    @Test func binaryWriterReproducesCocoaBytes() throws {
        let original = try SharedFixtures.data("bplist/cpython_TESTDATA_binary.plist")
        let written = try PropertyListValue(data: original).encoded(as: .binary)
        #expect(written == original)
    }
}
