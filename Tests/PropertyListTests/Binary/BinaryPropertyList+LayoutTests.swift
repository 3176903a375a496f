import Foundation
import Testing
@testable import PropertyList

/// The bytes the binary writer lays down, checked against what CF writes.
@Suite struct BinaryPropertyListLayoutTests {
    /// The single object of a one-scalar plist.
    func objectBytes(_ value: PropertyListValue) throws -> [UInt8] {
        let data = [UInt8](try BinaryPropertyListWriter().write(value))
        return Array(data[8..<(data.count - 32 - 1)])
    }

    @Test func integersUseCFWidths() throws {
        #expect(try objectBytes(5) == [0x10, 0x05])
        #expect(try objectBytes(728) == [0x11, 0x02, 0xD8])
        #expect(try objectBytes(70_000) == [0x12, 0x00, 0x01, 0x11, 0x70])
        #expect(try objectBytes(-5) == [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFB])
        #expect(try objectBytes(.integer(PropertyListInteger(UInt64.max)))
            == [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8))
        #expect(try objectBytes(.integer(PropertyListInteger(Int64.max - 43)))
            == [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xD4])
    }

    @Test func realsKeepTheirPrecision() throws {
        #expect(try objectBytes(.float(1.5)) == [0x22, 0x3F, 0xC0, 0x00, 0x00])
        #expect(try objectBytes(.real(1.5)) == [0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0])
    }

    @Test func stringsAreASCIIOrUTF16BigEndian() throws {
        #expect(try objectBytes("abc") == [0x53, 0x61, 0x62, 0x63])
        #expect(try objectBytes("é𝄞") == [0x63, 0x00, 0xE9, 0xD8, 0x34, 0xDD, 0x1E])
    }

    @Test func longCountsFollowAsIntegerObjects() throws {
        let fifteen = String(repeating: "a", count: 15)
        #expect(try objectBytes(.string(fifteen)) == [0x5F, 0x10, 0x0F] + Array(fifteen.utf8))
        let data = [UInt8](try BinaryPropertyListWriter().write(.array(Array(repeating: true, count: 300))))
        #expect(Array(data[8..<12]) == [0xAF, 0x11, 0x01, 0x2C])
    }

    @Test func scalarsAreStoredOnce() throws {
        let value: PropertyListValue = ["a": "same", "b": "same", "c": [1, 1, 1.0, true]]
        let data = [UInt8](try BinaryPropertyListWriter().write(value))
        let trailer = data.suffix(32)
        // root, keys a b c, "same", array, 1, 1.0, true = 9 objects.
        #expect(trailer[trailer.startIndex + 15] == 9)
        #expect(try BinaryPropertyListReader().read(Data(data)) == value)
    }

    /// The scalar table is sized from a guess that leaves dictionary keys out;
    /// thousands of distinct keys make it grow (rehashing from the written
    /// bytes) while earlier scalars must still be found.
    @Test func scalarsStayUniqueWhenTheTableGrows() throws {
        var entries: [(String, PropertyListValue)] = []
        for index in 0..<5_000 { entries.append(("key\(index)", .string("key\(4_999 - index)"))) }
        let value = PropertyListValue.dictionary(.init(uniqueKeysWithValues: entries))
        let data = [UInt8](try BinaryPropertyListWriter().write(value))
        let trailer = Array(data.suffix(32))
        let objectCount = trailer[8..<16].reduce(0) { $0 << 8 | Int($1) }
        // The root and 5,000 strings: every value is one of the keys.
        #expect(objectCount == 5_001)
        #expect(try BinaryPropertyListReader().read(Data(data)) == value)
    }

    @Test func referenceWidthGrowsWithObjectCount() throws {
        let value = PropertyListValue.array((0..<300).map { .integer(PropertyListInteger(Int64($0))) })
        let data = [UInt8](try BinaryPropertyListWriter().write(value))
        #expect(data[data.count - 32 + 7] == 2)
        #expect(try BinaryPropertyListReader().read(Data(data)) == value)
    }

    @Test func uidsUseOneTwoFourOrEightBytes() throws {
        #expect(try objectBytes(.uid(PropertyListUID(1))) == [0x80, 0x01])
        #expect(try objectBytes(.uid(PropertyListUID(300))) == [0x81, 0x01, 0x2C])
        #expect(try objectBytes(.uid(PropertyListUID(70_000))) == [0x83, 0x00, 0x01, 0x11, 0x70])
    }

    @Test func everyReferenceAndOffsetWidthFromTheCorpusReads() throws {
        for name in ["libplist_off1byte", "libplist_off3bytes", "libplist_off5bytes", "libplist_off8bytes",
                     "libplist_dictref1byte", "libplist_dictref3bytes", "libplist_dictref5bytes", "libplist_dictref8bytes"] {
            let value = try PropertyListValue(data: SharedFixtures.data("bplist/\(name).bplist"))
            let again = try PropertyListValue(data: value.encoded(as: .binary))
            #expect(again == value, "\(name)")
        }
    }

    @Test func writerRefusesValuesNestedTooDeep() throws {
        var value: PropertyListValue = 1
        for _ in 0..<600 { value = [value] }
        let error = #expect(throws: PropertyListError.self) { try value.encoded(as: .binary) }
        #expect(error?.code == .depthLimitExceeded)
    }
}
