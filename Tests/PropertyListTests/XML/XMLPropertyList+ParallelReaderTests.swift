import Foundation
import Testing
@testable import PropertyList

/// The two-thread XML reader gives exactly what the one-thread reader gives,
/// and finds out a cut that is not between two root entries (small
/// documents are forced onto the parallel path here).
@Suite struct XMLPropertyListParallelReaderTests {
    func parse(_ text: String, parallel: Bool, limits: PropertyListLimits = .default) throws -> PropertyListValue {
        var utf8 = text
        return try utf8.withUTF8 { bytes in
            try XMLPropertyListReader(limits: limits).parse(UnsafeRawBufferPointer(bytes), parallelThreshold: parallel ? 0 : .max)
        }
    }

    /// What the two halves alone make of `text` (nil: not splittable, or a half failed).
    func halves(_ text: String) -> PropertyListValue? {
        var utf8 = text
        return utf8.withUTF8 { bytes in try? XMLPlistParser.parseInHalves(UnsafeRawBufferPointer(bytes), limits: .default) } ?? nil
    }

    func document(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)</dict>\n</plist>\n"
    }

    @Test(arguments: 1...12)
    func halvesReadWhatOneThreadReads(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .xml)
        random.maximumDepth = 2  // small entries, so a root entry starts past the middle
        let root = random.splittableRoots(count: 30)[0]
        let text = String(decoding: try XMLPropertyListWriter().write(root), as: UTF8.self)
        let serial = try parse(text, parallel: false)
        let split = try #require(halves(text))
        #expect(split.isIdentical(to: serial), "\(split.firstDifference(from: serial) ?? "")")
        #expect(try parse(text, parallel: true).isIdentical(to: serial))
    }

    @Test func aCutInsideACommentIsFoundOutAndReadOnOneThread() throws {
        // The padding puts the middle inside the comment, before its fake entry.
        let padding = String(repeating: "x", count: 300)
        let comment = "<!-- \(padding) a root entry in a comment:\n\t<key>ghost</key>\n\t<string>no</string>\n-->"
        let text = document("\t<key>a</key>\n\t<integer>1</integer>\n" + comment + "\n\t<key>b</key>\n\t<integer>2</integer>\n")
        #expect(halves(text) == nil)
        #expect(try parse(text, parallel: true) == ["a": 1, "b": 2])
        #expect(try parse(text, parallel: true) == (try parse(text, parallel: false)))
    }

    @Test func aCutInsideANestedValueIsFoundOutAndReadOnOneThread() throws {
        let padding = String(repeating: "y", count: 300)
        let nested = "\t<key>outer</key>\n\t<dict>\n\t<key>pad</key>\n\t<string>\(padding)</string>\n"
            + "\t<key>inner</key>\n\t<integer>1</integer>\n\t</dict>\n"
        let text = document("\t<key>first</key>\n\t<string>x</string>\n" + nested + "\t<key>last</key>\n\t<true/>\n")
        #expect(halves(text) == nil)
        let serial = try parse(text, parallel: false)
        #expect(serial == ["first": "x", "outer": ["pad": .string(padding), "inner": 1], "last": true])
        #expect(try parse(text, parallel: true) == serial)
    }

    @Test func aKeyRepeatedAcrossTheHalvesKeepsItsFirstPlaceAndLastValue() throws {
        let text = document("\t<key>a</key>\n\t<integer>1</integer>\n\t<key>b</key>\n\t<integer>2</integer>\n"
                            + "\t<key>a</key>\n\t<integer>3</integer>\n\t<key>c</key>\n\t<integer>4</integer>\n")
        let split = try #require(halves(text))
        #expect(split == ["a": 3, "b": 2, "c": 4])
        #expect(split.dictionaryValue.map { Array($0.keys) } == ["a", "b", "c"])
    }

    @Test func aBrokenBackHalfGivesTheOneThreadError() throws {
        let text = document("\t<key>a</key>\n\t<integer>1</integer>\n\t<key>b</key>\n\t<integer>2</integer>\n"
                            + "\t<key>c</key>\n\t<integer>x3</integer>\n")
        let serial = #expect(throws: PropertyListError.self) { try parse(text, parallel: false) }
        let parallel = #expect(throws: PropertyListError.self) { try parse(text, parallel: true) }
        #expect(serial?.code == .invalidScalar)
        #expect(parallel?.location == serial?.location)
        #expect(parallel?.message == serial?.message)
    }

    @Test func theObjectLimitCountsBothHalves() throws {
        let body = (0..<6).map { "\t<key>k\($0)</key>\n\t<integer>\($0)</integer>\n" }.joined()
        var limits = PropertyListLimits.default
        limits.maximumObjectCount = 5
        let error = #expect(throws: PropertyListError.self) { try parse(document(body), parallel: true, limits: limits) }
        #expect(error?.code == .objectLimitExceeded)
    }

    @Test func rootsThatAreNotDictionariesAreReadOnOneThread() throws {
        let array = "<plist version=\"1.0\">\n<array>\n\t<integer>1</integer>\n\t<integer>2</integer>\n</array>\n</plist>\n"
        #expect(halves(array) == nil)
        #expect(try parse(array, parallel: true) == [1, 2])
        #expect(halves(document("")) == nil)
    }
}
