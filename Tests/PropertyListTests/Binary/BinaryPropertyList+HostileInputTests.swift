import Foundation
import Testing
@testable import PropertyList

/// Hostile binary inputs: each is refused with a typed error, or decoded in
/// linear time; none crashes or hangs.
@Suite struct BinaryPropertyListHostileInputTests {
    @Test func sharedReferenceBombWithABillionLeavesDecodesAndShares() throws {
        let data = BinaryPlistBuilder.sharedReferenceBomb(levels: 30)
        #expect(data.count < 250)
        let value = try BinaryPropertyListReader().read(data)
        var node = value
        var depth = 0
        while case .array(let children) = node {
            #expect(children.count == 2)
            node = children[0]
            depth += 1
        }
        #expect(depth == 30)
        #expect(node == 42)
    }

    @Test func selfContainingArrayIsACycle() throws {
        var builder = BinaryPlistBuilder()
        _ = builder.add([0xA1, 0x00])
        let error = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().read(builder.build()) }
        #expect(error?.code == .cycle)
        #expect(error?.location == .byteOffset(8))
    }

    @Test func twoLevelCycleThroughADictionaryIsFound() throws {
        var builder = BinaryPlistBuilder()
        _ = builder.add([0xD1, 0x01, 0x02])  // { "k": object 2 }
        _ = builder.add([0x51, UInt8(ascii: "k")])
        _ = builder.add([0xA1, 0x00])        // [object 0]
        let error = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().read(builder.build()) }
        #expect(error?.code == .cycle)
    }

    @Test func nestingBeyondTheLimitIsRefusedWithoutRecursingFurther() throws {
        let data = BinaryPlistBuilder.nestedArrays(levels: 10_000, referenceSize: 2)
        let error = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().read(data) }
        #expect(error?.code == .depthLimitExceeded)
        let ios = #expect(throws: PropertyListError.self) {
            try BinaryPropertyListReader(limits: .iOS).read(BinaryPlistBuilder.sharedReferenceBomb(levels: 129))
        }
        #expect(ios?.code == .depthLimitExceeded)
    }

    @Test func deepButAllowedNestingDecodes() throws {
        #expect(throws: Never.self) { try BinaryPropertyListReader().read(BinaryPlistBuilder.sharedReferenceBomb(levels: 511)) }
    }

    @Test func brokenBinaryNeverFallsBackToText() throws {
        let error = #expect(throws: PropertyListError.self) { try PropertyListValue(data: Data("bplist00".utf8)) }
        #expect(error?.format == .binary)
        #expect(error?.code == .truncated)
    }

    @Test func countsAreCheckedBeforeAllocation() throws {
        var builder = BinaryPlistBuilder()
        // An array claiming 2^62 elements through an 8-byte count.
        _ = builder.add([0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0])
        let error = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().read(builder.build()) }
        #expect(error?.code == .outOfBounds)
    }

    @Test func objectLimitIsEnforced() throws {
        let data = try PropertyListValue.array(Array(repeating: 1, count: 10) + (0..<100).map { .integer(PropertyListInteger(Int64($0))) })
            .encoded(as: .binary)
        let error = #expect(throws: PropertyListError.self) {
            try BinaryPropertyListReader(limits: .init(maximumObjectCount: 50)).read(data)
        }
        #expect(error?.code == .objectLimitExceeded)
    }

    @Test func nonFiniteAndFarDatesAreRefused() throws {
        for bits: UInt64 in [0x7FF8_0000_0000_0000, 0x7FF0_0000_0000_0000, 0x4250_0000_0000_0000] {
            var builder = BinaryPlistBuilder()
            _ = builder.add([0x33] + BinaryPlistBuilder.bigEndian(bits, size: 8))
            let error = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().read(builder.build()) }
            #expect(error?.code == .invalidScalar)
        }
        let writeError = #expect(throws: PropertyListError.self) {
            try PropertyListValue.date(Date(timeIntervalSinceReferenceDate: .nan)).encoded(as: .binary)
        }
        #expect(writeError?.code == .unsupportedValue)
    }

    @Test func everyTruncationOfAValidFileIsATypedError() throws {
        let data = try SharedFixtures.data("bplist/cpython_TESTDATA_binary.plist")
        for length in 0..<data.count {
            #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().read(data.prefix(length)) }
        }
    }

    @Test func everySingleByteCorruptionIsHandled() throws {
        let data = try SharedFixtures.data("bplist/cpython_TESTDATA_binary.plist")
        for index in 0..<data.count {
            for replacement: UInt8 in [0x00, 0xFF, data[index] ^ 0x01] {
                var corrupt = data
                corrupt[index] = replacement
                do { _ = try BinaryPropertyListReader().read(corrupt) } catch is PropertyListError {}
            }
        }
    }
}
