import Foundation
import Testing
@testable import PropertyList

/// The two-thread decode of large documents gives exactly what the
/// one-thread decode gives: the same values, the same errors, the same
/// limits (small documents are forced onto the parallel path here).
@Suite struct BinaryPropertyListParallelReaderTests {
    /// Decodes `data` on one thread or with the root's children in two halves.
    func decode(_ data: Data, parallel: Bool, limits: PropertyListLimits = .default) throws -> PropertyListValue {
        let reader = BinaryPropertyListReader(limits: limits)
        return try data.withUnsafeBytes { bytes in
            let trailer = try BinaryPropertyListTrailer(bytes, limits: limits)
            return try reader.decodeRoot(bytes: bytes, trailer: trailer, parallelThreshold: parallel ? 0 : .max)
        }
    }

    /// The error each path throws for `data`, which must be refused.
    func errors(_ data: Data, limits: PropertyListLimits = .default) -> (serial: PropertyListError?, parallel: PropertyListError?) {
        let serial = #expect(throws: PropertyListError.self) { try decode(data, parallel: false, limits: limits) }
        let parallel = #expect(throws: PropertyListError.self) { try decode(data, parallel: true, limits: limits) }
        return (serial, parallel)
    }

    @Test(arguments: 1...12)
    func halvesDecodeWhatOneThreadDecodes(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .binary)
        for root in random.splittableRoots(count: 40) {
            let data = try BinaryPropertyListWriter().write(root)
            let serial = try decode(data, parallel: false)
            let parallel = try decode(data, parallel: true)
            #expect(parallel.isIdentical(to: serial), "\(parallel.firstDifference(from: serial) ?? "")")
            #expect(parallel.isIdentical(to: root))
        }
    }

    @Test func aKeyRepeatedAcrossTheHalvesKeepsItsFirstPlaceAndLastValue() throws {
        var builder = BinaryPlistBuilder()
        // { a: 1, b: 2, a: 3, c: 4 }: the second "a" is in the second half.
        _ = builder.add([0xD4, 1, 2, 1, 3, 4, 5, 6, 7])
        _ = builder.add([0x51, UInt8(ascii: "a")])
        _ = builder.add([0x51, UInt8(ascii: "b")])
        _ = builder.add([0x51, UInt8(ascii: "c")])
        for number in 1...4 { _ = builder.add([0x10, UInt8(number)]) }
        let data = builder.build()
        let parallel = try decode(data, parallel: true)
        #expect(parallel == (try decode(data, parallel: false)))
        #expect(parallel == ["a": 3, "b": 2, "c": 4])
        #expect(parallel.dictionaryValue.map { Array($0.keys) } == ["a", "b", "c"])
    }

    @Test func aBrokenKeyInTheSecondHalfIsReportedBeforeABrokenValueInTheFirst() throws {
        var builder = BinaryPlistBuilder()
        // { "a": null, 7: 1 }: one thread reads every key before any value.
        _ = builder.add([0xD2, 1, 2, 3, 4])
        _ = builder.add([0x51, UInt8(ascii: "a")])
        _ = builder.add([0x10, 7])
        _ = builder.add([0x00])
        _ = builder.add([0x10, 1])
        let (serial, parallel) = errors(builder.build())
        #expect(serial?.code == .invalidKey)
        #expect(parallel?.code == serial?.code)
        #expect(parallel?.message == serial?.message)
        #expect(parallel?.location == serial?.location)
    }

    @Test func anObjectDecodedShallowFirstIsReusedDeeperAsOneThreadReusesIt() throws {
        // [X, Y] with X = [L] and Y = [[L]], L = [1]; depth limit 4. One
        // thread decodes L under X (depth 2) and reuses it under Y (depth 3,
        // where decoding it afresh would open a container at the limit).
        var builder = BinaryPlistBuilder()
        _ = builder.add([0xA2, 1, 2])   // 0: root
        _ = builder.add([0xA1, 4])      // 1: X = [L]
        _ = builder.add([0xA1, 3])      // 2: Y = [Z]
        _ = builder.add([0xA1, 4])      // 3: Z = [L]
        _ = builder.add([0xA1, 5])      // 4: L = [1]
        _ = builder.add([0x10, 1])      // 5
        var limits = PropertyListLimits.default
        limits.maximumDepth = 3
        let serial = try decode(builder.build(), parallel: false, limits: limits)
        #expect(try decode(builder.build(), parallel: true, limits: limits) == serial)
        #expect(serial == [[[1]], [[[1]]]])
    }

    @Test func aCycleThroughTheRootIsFoundByEitherHalf() throws {
        var builder = BinaryPlistBuilder()
        _ = builder.add([0xA2, 1, 2])  // [1, [root]]
        _ = builder.add([0x10, 1])
        _ = builder.add([0xA1, 0])
        let (serial, parallel) = errors(builder.build())
        #expect(serial?.code == .cycle)
        #expect(parallel?.code == .cycle)
        #expect(parallel?.location == serial?.location)
    }

    @Test func aSharedReferenceBombStaysLinearInBothHalves() throws {
        let value = try decode(BinaryPlistBuilder.sharedReferenceBomb(levels: 30), parallel: true)
        guard case .array(let children) = value else {
            Issue.record("the bomb's root is not an array")
            return
        }
        #expect(children.count == 2)
    }

    @Test func rootsThatCannotBeSplitAreDecodedOnOneThread() throws {
        for root: PropertyListValue in [42, "text", [1], ["only": 1], [], [:]] {
            let data = try BinaryPropertyListWriter().write(root)
            #expect(try decode(data, parallel: true) == root)
        }
    }
}
