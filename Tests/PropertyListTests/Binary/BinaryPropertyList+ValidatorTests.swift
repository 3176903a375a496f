import Foundation
import TestSupport
import Testing
@testable import PropertyList

/// The validating pass behind `sandbox plist -lint` accepts exactly what the
/// decoder reads and refuses everything else with the decoder's error: same
/// code, same message, same byte.
@Suite struct BinaryPropertyListValidatorTests {
    /// The decoder's and the validator's verdicts on `data`: nil when it is
    /// accepted, else the error.
    static func verdicts(_ data: Data, limits: PropertyListLimits = .default) -> (decoder: PropertyListError?, validator: PropertyListError?) {
        func verdict(_ body: () throws -> Void) -> PropertyListError? {
            do { try body(); return nil } catch let error as PropertyListError { return error } catch {
                return PropertyListError(.syntax, format: nil, "not a PropertyListError: \(error)")
            }
        }
        let reader = BinaryPropertyListReader(limits: limits)
        return (verdict { _ = try reader.read(data) }, verdict { try reader.validate(data) })
    }

    static func expectAgreement(_ data: Data, limits: PropertyListLimits = .default, _ name: String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let (decoder, validator) = verdicts(data, limits: limits)
        #expect(decoder == validator, "\(name): decoder \(decoder.map(String.init(describing:)) ?? "accepts"), validator \(validator.map(String.init(describing:)) ?? "accepts")",
                sourceLocation: sourceLocation)
    }

    /// Every binary file of the shared corpus: the good ones, the malformed
    /// ones (CPython's invalid set, archives), anything that starts `bplist`.
    @Test func theValidatorAndTheDecoderAgreeOnTheSharedCorpus() throws {
        var checked = 0
        for folder in ["bplist", "malformed", "keyed_archive", "misc", "xml", "openstep"] {
            for file in SharedFixtures.files(in: folder) {
                let data = try Data(contentsOf: file)
                guard data.starts(with: Array("bplist".utf8)) else { continue }
                Self.expectAgreement(data, "\(folder)/\(file.lastPathComponent)")
                checked += 1
            }
        }
        try #require(checked >= 60, "the shared corpus is missing (\(checked) binary files)")
    }

    @Test func theyAgreeOnEveryTruncationAndSingleByteCorruption() throws {
        for name in ["bplist/cpython_TESTDATA_binary.plist", "bplist/rustplist_utf16_bplist.plist",
                     "bplist/libplist_dictref3bytes.bplist", "bplist/libplist_uid.bplist"] {
            let data = try SharedFixtures.data(name)
            DamagedCopies.forEach(of: data, named: name, replacements: { [0x00, 0xFF, 0x0F, 0xD1, 0xA1, 0x61, $0 ^ 0x01, $0 &+ 1] }) {
                Self.expectAgreement($0, $1)
            }
        }
    }

    @Test func theyAgreeOnRandomDocumentsWithRandomDamage() throws {
        var generator = SeededGenerator(seed: 14)
        for round in 0..<300 {
            var random = RandomPropertyList(seed: UInt64(round), profile: .binary)
            var data = try random.value().encoded(as: .binary)
            Self.expectAgreement(data, "random document \(round)")
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                data[Int.random(in: 0..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            Self.expectAgreement(data, "random document \(round), damaged")
        }
    }

    @Test func theyAgreeOnTheHostileShapes() throws {
        var cases: [(String, Data, PropertyListLimits)] = []
        func add(_ name: String, limits: PropertyListLimits = .default, _ build: (inout BinaryPlistBuilder) -> Void) {
            var builder = BinaryPlistBuilder()
            build(&builder)
            cases.append((name, builder.build(), limits))
        }
        add("self-containing array") { _ = $0.add([0xA1, 0x00]) }
        add("cycle through a dictionary") {
            _ = $0.add([0xD1, 0x01, 0x02]); _ = $0.add([0x51, UInt8(ascii: "k")]); _ = $0.add([0xA1, 0x00])
        }
        add("dictionary whose key is itself") { _ = $0.add([0xD1, 0x00, 0x00]) }
        add("integer key") { _ = $0.add([0xD1, 0x01, 0x01]); _ = $0.add([0x10, 0x07]) }
        add("valid array as a key") { _ = $0.add([0xD1, 0x01, 0x02]); _ = $0.add([0xA1, 0x02]); _ = $0.add([0x09]) }
        add("array key holding a bad object") { _ = $0.add([0xD1, 0x01, 0x02]); _ = $0.add([0xA1, 0x02]); _ = $0.add([0x00]) }
        add("array key seen before as a value") {
            _ = $0.add([0xA2, 0x01, 0x02]); _ = $0.add([0xA0]); _ = $0.add([0xD1, 0x01, 0x01])
        }
        add("integer key seen before as a value") {
            _ = $0.add([0xA2, 0x01, 0x02]); _ = $0.add([0x10, 0x01]); _ = $0.add([0xD1, 0x01, 0x01])
        }
        add("second key bad after a bad value would be") {
            _ = $0.add([0xD2, 0x01, 0x02, 0x03, 0x03]); _ = $0.add([0x51, 0x61]); _ = $0.add([0x10, 0x01]); _ = $0.add([0x00])
        }
        add("unpaired low surrogate") { _ = $0.add([0x62, 0x00, 0x41, 0xDC, 0x00]) }
        add("high surrogate at the end") { _ = $0.add([0x62, 0x00, 0x41, 0xD8, 0x00]) }
        add("high surrogate before a letter") { _ = $0.add([0x62, 0xD8, 0x00, 0x00, 0x41]) }
        add("paired surrogates") { _ = $0.add([0x62, 0xD8, 0x3D, 0xDE, 0x42]) }
        add("non-ASCII ASCII string") { _ = $0.add([0x52, 0x41, 0xC3]) }
        add("set of one") { _ = $0.add([0xC1, 0x01]); _ = $0.add([0x08]) }
        add("unknown markers") { _ = $0.add([0xA3, 0x01, 0x02, 0x03]); _ = $0.add([0x70]); _ = $0.add([0x0C]); _ = $0.add([0x31]) }
        add("sixteen-byte integer out of range") { _ = $0.add([0x14] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)) }
        add("real of two bytes") { _ = $0.add([0x21, 0, 0]) }
        add("date that is NaN") { _ = $0.add([0x33] + BinaryPlistBuilder.bigEndian(0x7FF8_0000_0000_0000, size: 8)) }
        add("count with a bad marker") { _ = $0.add([0x4F, 0x20, 0x01]) }
        add("reference past the objects") { _ = $0.add([0xA1, 0x07]) }
        add("huge array count") { _ = $0.add([0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]) }
        add("root that is a key-only dictionary of strings") {
            _ = $0.add([0xD2, 0x01, 0x01, 0x02, 0x02]); _ = $0.add([0x51, 0x61]); _ = $0.add([0x08])
        }
        add("shallow depth limit", limits: .init(maximumDepth: 2)) {
            _ = $0.add([0xA1, 0x01]); _ = $0.add([0xA1, 0x02]); _ = $0.add([0xA0])
        }
        add("object limit", limits: .init(maximumObjectCount: 1)) { _ = $0.add([0xA1, 0x01]); _ = $0.add([0x08]) }
        for (name, data, limits) in cases { Self.expectAgreement(data, limits: limits, name) }
    }

    @Test func aContainerKeyIsRefusedAfterItsContentsAreChecked() throws {
        var builder = BinaryPlistBuilder()
        _ = builder.add([0xD1, 0x01, 0x02])  // { [null]: true }
        _ = builder.add([0xA1, 0x03])
        _ = builder.add([0x09])
        _ = builder.add([0x00])
        let inner = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().validate(builder.build()) }
        #expect(inner?.code == .invalidObject)
        builder.objects[3] = [0x08]
        let key = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().validate(builder.build()) }
        #expect(key?.code == .invalidKey)
        #expect(key?.location == .byteOffset(8))
    }

    @Test func aBillionLeavesValidateInLinearTime() throws {
        let started = ContinuousClock.now
        try BinaryPropertyListReader().validate(BinaryPlistBuilder.sharedReferenceBomb(levels: 30))
        try BinaryPropertyListReader().validate(BinaryPlistBuilder.sharedReferenceBomb(levels: 511))
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func nestingIsWalkedWithoutRecursion() throws {
        // 100,000 levels, allowed by the limits: the walk keeps its own stack.
        let levels = 100_000
        let data = BinaryPlistBuilder.nestedArrays(levels: levels, referenceSize: 4)
        try BinaryPropertyListReader(limits: .init(maximumDepth: levels + 1)).validate(data)
        let error = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().validate(data) }
        #expect(error?.code == .depthLimitExceeded)
        Self.expectAgreement(data, "100,000 levels")
    }

    @Test func largeDocumentsThatTheDecoderSplitsOverTwoThreadsAgree() throws {
        let count = 40_000
        let dictionary = PropertyListValue.dictionary(.init(uniqueKeysWithValues: (0..<count).map { ("k\($0)", .integer(PropertyListInteger(Int64($0)))) }))
        let array = PropertyListValue.array((0..<count).map { .string("s\($0)") })
        for root in [dictionary, array] {
            let data = try root.encoded(as: .binary)
            #expect(data.count > 200_000)
            Self.expectAgreement(data, "large document")
            var generator = SeededGenerator(seed: UInt64(data.count))
            for round in 0..<6 {
                var damaged = data
                damaged[Int.random(in: 8..<(data.count - 32), using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                Self.expectAgreement(damaged, "large document, damage \(round)")
            }
        }
        // A root of 70,000 references whose last element contains the root:
        // the second thread's part finds the cycle, and the serial walk reports it.
        var builder = BinaryPlistBuilder()
        builder.refSize = 4
        builder.offsetSize = 4
        let elements = 70_000
        _ = builder.add([0xAF, 0x12] + BinaryPlistBuilder.bigEndian(UInt64(elements), size: 4)
                        + (1...elements).flatMap { BinaryPlistBuilder.bigEndian(UInt64($0), size: 4) })
        for _ in 1..<elements { _ = builder.add([0x10, 0x07]) }
        _ = builder.add([0xA1, 0, 0, 0, 0])
        let cycle = builder.build()
        Self.expectAgreement(cycle, "a cycle through the root in the second part")
        let error = #expect(throws: PropertyListError.self) { try BinaryPropertyListReader().validate(cycle) }
        #expect(error?.code == .cycle)
    }
}
