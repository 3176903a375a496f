import Foundation
import TestSupport
import Testing
@testable import PropertyList

/// `sandbox plist -convert xml1` of a binary file streams it
/// (`PropertyListValue.convert(_:from:to:limits:options:)`): it must give
/// exactly the bytes of decoding then writing, and for every input either
/// refuses, the same error (type, code, message, place or key path).
@Suite struct BinaryPropertyListXMLStreamTests {
    /// What decoding then writing gives, what the stream gives, and what it
    /// hands to a writer in pieces: the output, or the error's full text.
    static func outcomes(_ data: Data, limits: PropertyListLimits = .default, options: PropertyListWriteOptions = .init())
        -> (decoded: String, streamed: String, pieces: String) {
        func outcome(_ body: () throws -> Data) -> String {
            do { return "output \(try body().base64EncodedString())" } catch { return "\(type(of: error)): \(error)" }
        }
        return (outcome { try PropertyListValue.decode(data, as: .binary, limits: limits).encoded(as: .xml, options: options) },
                outcome { try PropertyListValue.convert(data, from: .binary, to: .xml, limits: limits, options: options) },
                outcome {
                    var written = Data()
                    try PropertyListValue.convert(data, from: .binary, to: .xml, limits: limits, options: options) {
                        written.append(contentsOf: $0)
                    }
                    return written
                })
    }

    /// Checks agreement; returns whether decoding then writing succeeded.
    @discardableResult
    static func expectSame(_ data: Data, limits: PropertyListLimits = .default, options: PropertyListWriteOptions = .init(),
                           _ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (decoded, streamed, pieces) = outcomes(data, limits: limits, options: options)
        #expect(decoded == streamed, "\(name): decoded \(decoded.prefix(300)), streamed \(streamed.prefix(300))",
                sourceLocation: sourceLocation)
        #expect(decoded == pieces, "\(name): decoded \(decoded.prefix(300)), in pieces \(pieces.prefix(300))",
                sourceLocation: sourceLocation)
        return decoded.hasPrefix("output ")
    }

    /// Whether the stream wrote `data` itself (it hands a repeated key to the decoder).
    static func streams(_ data: Data, options: PropertyListWriteOptions = .init()) throws -> Bool {
        try data.withUnsafeBytes { try BinaryPropertyListReader().streamXML(bytes: $0, options: options) } != nil
    }

    @Test func theStreamAndTheDecoderAgreeOnTheSharedCorpus() throws {
        var accepted = 0, streamed = 0
        for folder in ["bplist", "keyed_archive", "malformed", "xml", "misc"] {
            for file in SharedFixtures.files(in: folder) {
                let data = try Data(contentsOf: file)
                guard Self.expectSame(data, "\(folder)/\(file.lastPathComponent)") else { continue }
                accepted += 1
                if try Self.streams(data) { streamed += 1 }
            }
        }
        try #require(accepted >= 40, "the shared corpus is missing (\(accepted) files converted)")
        #expect(streamed >= accepted - 2, "\(streamed) of \(accepted) streamed")
    }

    @Test func theyAgreeOnEveryTruncationAndSingleByteCorruption() throws {
        for name in ["bplist/cpython_TESTDATA_binary.plist", "bplist/ddplist_issue22-emoji.plist",
                     "bplist/rustplist_utf16_bplist.plist", "bplist/libplist_uid.bplist", "bplist/bpylist2_dict_big.plist"] {
            let data = try SharedFixtures.data(name)
            DamagedCopies.forEach(of: data, named: name, replacements: { byte in
                // Markers (string, array, dictionary, data, count), control
                // characters and '<' in strings, and nearby values.
                [0x00, 0xFF, 0x01, 0x0D, 0x3C, 0x5F, 0x61, 0xA2, 0xD1, 0x44, 0x0F, byte ^ 0x01, byte &+ 1].filter { $0 != byte }
            }) { Self.expectSame($0, $1) }
        }
    }

    @Test func theyAgreeOnRandomDocumentsWithRandomDamageAndLimits() throws {
        var generator = SeededGenerator(seed: 41)
        for round in 0..<300 {
            // The binary profile keeps control characters, which XML refuses
            // with a key path: the stream must name the same one.
            var random = RandomPropertyList(seed: UInt64(round), profile: .binary)
            var data = try random.value().encoded(as: .binary)
            Self.expectSame(data, "random document \(round)")
            let limit = Int.random(in: 64...4096, using: &generator)
            Self.expectSame(data, options: .init(maximumOutputSize: limit), "random document \(round), output limit \(limit)")
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                data[Int.random(in: 0..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            Self.expectSame(data, "random document \(round), damaged")
        }
    }

    @Test func bombsAreRefusedWithTheWritersErrorBeforeAnythingIsWritten() throws {
        // 2^10 and 2^16 leaves are written out; the others are refused.
        for levels in [10, 16, 30, 40, 62, 63, 64, 100] {
            let bomb = BinaryPlistBuilder.sharedReferenceBomb(levels: levels)
            let started = ContinuousClock.now
            Self.expectSame(bomb, "bomb of \(levels) levels")
            for limit in [100, 1 << 12, 1 << 18] {
                Self.expectSame(bomb, options: .init(maximumOutputSize: limit), "bomb of \(levels) levels, output limit \(limit)")
            }
            #expect(ContinuousClock.now - started < .seconds(10), "\(levels) levels")
        }
        // Past the object limit (2^26) with the output limit above it: the
        // object limit's error. Under the quick count's 4 million: the
        // output limit's, from the count that ran out.
        let bomb = BinaryPlistBuilder.sharedReferenceBomb(levels: 27)
        Self.expectSame(bomb, options: .init(maximumOutputSize: 1 << 30), "bomb of 27 levels, 1 GiB output limit")
        Self.expectSame(bomb, options: .init(maximumOutputSize: 1 << 21), "bomb of 27 levels, 2 MiB output limit")
        let error = #expect(throws: PropertyListError.self) {
            try PropertyListValue.convert(BinaryPlistBuilder.sharedReferenceBomb(levels: 40), from: .binary, to: .xml)
        }
        #expect(error?.code == .outputLimitExceeded || error?.code == .objectLimitExceeded)

        // A wide bomb: 200,000 references to one 4 KiB string.
        var builder = BinaryPlistBuilder()
        builder.refSize = 4
        builder.offsetSize = 4
        _ = builder.add([0xAF, 0x12] + BinaryPlistBuilder.bigEndian(200_000, size: 4)
                        + Array(repeating: BinaryPlistBuilder.bigEndian(1, size: 4), count: 200_000).flatMap { $0 })
        _ = builder.add([0x5F, 0x11, 0x10, 0x00] + [UInt8](repeating: UInt8(ascii: "x"), count: 4096))
        Self.expectSame(builder.build(), "wide bomb")
    }

    @Test func hostileShapesFailAsTheDecoderFails() throws {
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
        add("integer key") { _ = $0.add([0xD1, 0x01, 0x01]); _ = $0.add([0x10, 0x07]) }
        add("unpaired low surrogate") { _ = $0.add([0x62, 0x00, 0x41, 0xDC, 0x00]) }
        add("paired surrogates") { _ = $0.add([0x62, 0xD8, 0x3D, 0xDE, 0x42]) }
        add("non-character U+FFFF") { _ = $0.add([0x61, 0xFF, 0xFF]) }
        add("control character in a key") {
            _ = $0.add([0xD1, 0x01, 0x02]); _ = $0.add([0x52, 0x61, 0x01]); _ = $0.add([0x09])
        }
        add("control character deep inside") {
            _ = $0.add([0xD1, 0x01, 0x02]); _ = $0.add([0x52, 0x6B, 0x31]); _ = $0.add([0xA2, 0x03, 0x04])
            _ = $0.add([0x51, 0x61]); _ = $0.add([0x53, 0x61, 0x0B, 0x62])
        }
        add("carriage return and markup") { _ = $0.add([0x55, 0x3C, 0x26, 0x0D, 0x3E, 0x0A]) }
        add("date that is NaN") { _ = $0.add([0x33] + BinaryPlistBuilder.bigEndian(0x7FF8_0000_0000_0000, size: 8)) }
        add("UID") { _ = $0.add([0xA1, 0x01]); _ = $0.add([0x80, 0x05]) }
        add("set of one") { _ = $0.add([0xC1, 0x01]); _ = $0.add([0x08]) }
        add("empty containers") { _ = $0.add([0xA2, 0x01, 0x02]); _ = $0.add([0xA0]); _ = $0.add([0xD0]) }
        add("data at depth") { _ = $0.add([0xA1, 0x01]); _ = $0.add([0xA1, 0x02]); _ = $0.add([0x4F, 0x10, 0x64] + [UInt8](0..<100)) }
        add("a repeated key") {
            _ = $0.add([0xD2, 0x01, 0x01, 0x02, 0x03]); _ = $0.add([0x51, 0x61]); _ = $0.add([0x08]); _ = $0.add([0x09])
        }
        add("two equal keys as different objects") {
            _ = $0.add([0xD2, 0x01, 0x02, 0x03, 0x03]); _ = $0.add([0x51, 0x61]); _ = $0.add([0x61, 0x00, 0x61]); _ = $0.add([0x09])
        }
        add("canonically equal keys") {
            // "é" precomposed, and "e" with a combining acute: one Swift key.
            _ = $0.add([0xD2, 0x01, 0x02, 0x03, 0x03]); _ = $0.add([0x61, 0x00, 0xE9]); _ = $0.add([0x62, 0x00, 0x65, 0x03, 0x01])
            _ = $0.add([0x09])
        }
        add("shallow depth limit", limits: .init(maximumDepth: 2)) {
            _ = $0.add([0xA1, 0x01]); _ = $0.add([0xA1, 0x02]); _ = $0.add([0xA0])
        }
        add("object limit", limits: .init(maximumObjectCount: 1)) { _ = $0.add([0xA1, 0x01]); _ = $0.add([0x08]) }
        for (name, data, limits) in cases { Self.expectSame(data, limits: limits, name) }
        // 100,000 nested arrays: the depth limit, as decoding.
        Self.expectSame(BinaryPlistBuilder.nestedArrays(levels: 100_000, referenceSize: 4), "100,000 levels")
        Self.expectSame(BinaryPlistBuilder.nestedArrays(levels: 511, referenceSize: 2), "511 levels")
        // Sorted keys and a writer depth below the reader's are decoded.
        let nested = BinaryPlistBuilder.nestedArrays(levels: 20, referenceSize: 1)
        Self.expectSame(nested, options: .init(maximumDepth: 10), "writer depth 10")
        #expect(try !Self.streams(nested, options: .init(maximumDepth: 10)))
        #expect(try Self.streams(nested))
    }

    /// A dictionary of 32 keys or more is checked for a repeated key as
    /// bytes when every key is an ASCII string object, else as Swift
    /// strings; both must find what the decoder finds.
    @Test func wideKeySetsAgree() throws {
        // The root: 40 keys (objects 1…40: "k0"…"k39") and one value (41);
        // key `replaced` gets the object `bytes` instead.
        func wide(_ replaced: Int? = nil, with bytes: [UInt8] = [], sameObjectTwice: Bool = false) -> Data {
            var builder = BinaryPlistBuilder()
            builder.offsetSize = 2
            let keys = (1...40).map { UInt8(sameObjectTwice && $0 == 40 ? 1 : $0) }
            _ = builder.add([0xDF, 0x10, 40] + keys + [UInt8](repeating: 41, count: 40))
            for index in 0..<40 {
                let text = Array("k\(index)".utf8)
                _ = builder.add(index == replaced ? bytes : [0x50 | UInt8(text.count)] + text)
            }
            _ = builder.add([0x09])
            return builder.build()
        }
        let cases: [(String, Data, streams: Bool?)] = [
            ("40 distinct keys", wide(), true),
            ("an ASCII key repeated", wide(39, with: [0x52] + Array("k3".utf8)), false),
            ("one key object twice", wide(sameObjectTwice: true), false),
            ("a UTF-16 key equal to an ASCII one", wide(39, with: [0x62, 0x00, 0x6B, 0x00, 0x33]), false),
            ("a UTF-16 key of its own", wide(39, with: [0x62, 0x00, 0xE9, 0x00, 0x33]), true),
            ("a control character in a key", wide(20, with: [0x52, 0x6B, 0x01]), nil),
        ]
        for (name, data, streams) in cases {
            Self.expectSame(data, name)
            if let streams { #expect(try Self.streams(data) == streams, "\(name)") }
        }
        // A root of 70,000 keys (counted on two threads) repeating one late.
        let root = try PropertyListValue.dictionary(.init(uniqueKeysWithValues: (0..<70_000).map {
            (String(format: "k%05d", $0), PropertyListValue.integer(PropertyListInteger(Int64($0))))
        })).encoded(as: .binary)
        #expect(try Self.streams(root))
        var repeated = root
        let late = try #require(repeated.range(of: Data("k69998".utf8)))
        repeated.replaceSubrange(late, with: Data("k12345".utf8))
        Self.expectSame(repeated, "70,000 keys, one repeated")
        #expect(try !Self.streams(repeated))
    }

    /// Records (dictionaries sharing their key objects) reuse their key
    /// elements: the same bytes, and the same errors in the same order.
    @Test func recordsAgree() throws {
        func records(_ count: Int, badValueAt bad: Int? = nil, badKey: Bool = false) throws -> Data {
            let keys = ["name", "a<b & c>", badKey ? "tab\u{1}" : "id", "é", "when"]
            return try PropertyListValue.array((0..<count).map { record in
                .dictionary(.init(uniqueKeysWithValues: keys.enumerated().map { index, key -> (String, PropertyListValue) in
                    switch index {
                    case 0: return (key, .string(record == bad ? "bad \u{2}" : "r\(record)"))
                    case 4: return (key, .date(Date(timeIntervalSinceReferenceDate: Double(record) * 1000.5)))
                    default: return (key, .integer(PropertyListInteger(Int64(record * index - 7))))
                    }
                }))
            }).encoded(as: .binary)
        }
        for count in [1, 50, 20_000] {
            #expect(Self.expectSame(try records(count), "\(count) records"))
            Self.expectSame(try records(count, badValueAt: count * 2 / 3), "\(count) records, a bad value")
            Self.expectSame(try records(count, badKey: true), "\(count) records, a bad key")
        }
    }

    /// Documents of 65,536 objects or more are written on two threads.
    @Test func largeDocumentsWrittenInHalvesAgree() throws {
        let count = 40_000
        let dictionary = PropertyListValue.dictionary(.init(uniqueKeysWithValues: (0..<count).map {
            ("key \($0)", PropertyListValue.array([.string("value <\($0)> é"), .integer(PropertyListInteger(Int64($0))),
                                                    .data(Data(repeating: UInt8($0 % 256), count: $0 % 40))]))
        }))
        let array = PropertyListValue.array((0..<(3 * count)).map { .string("s\($0)") })
        for root in [dictionary, array] {
            let data = try root.encoded(as: .binary)
            #expect(Self.expectSame(data, "large document"))
            #expect(try Self.streams(data))
            var generator = SeededGenerator(seed: UInt64(data.count))
            for round in 0..<6 {
                var damaged = data
                damaged[Int.random(in: 8..<(data.count - 32), using: &generator)] = [0x01, 0x0B, 0xFF][round % 3]
                Self.expectSame(damaged, "large document, damage \(round)")
            }
        }
    }

    /// A large document handed over in many small pieces: the same bytes
    /// in order, and a control character in a late piece fails with the
    /// one-thread writer's error (key path included) after earlier pieces
    /// were written.
    @Test func largeDocumentsWrittenInManyPiecesAgree() throws {
        let count = 70_000
        func document(badAt bad: Int?) throws -> Data {
            try PropertyListValue.dictionary(.init(uniqueKeysWithValues: (0..<count).map {
                ("k\($0)", PropertyListValue.array([.string($0 == bad ? "bad \u{1}" : "v<\($0)>"), .real(Double($0) / 7)]))
            })).encoded(as: .binary)
        }
        let good = try document(badAt: nil)
        let expected = try PropertyListValue.convert(good, from: .binary, to: .xml)
        for pieceBytes in [1, 4096, 1 << 16] {
            var written = Data()
            var calls = 0
            let handled = try good.withUnsafeBytes { bytes in
                try BinaryPropertyListReader().streamXML(bytes: bytes, options: .init(), pieceBytes: pieceBytes) {
                    written.append(contentsOf: $0)
                    calls += 1
                }
            }
            #expect(handled)
            #expect(written == expected, "pieces of \(pieceBytes) bytes")
            #expect(calls > 1, "pieces of \(pieceBytes) bytes")
        }
        for bad in [0, count / 3, count - 1] {
            let data = try document(badAt: bad)
            Self.expectSame(data, "control character in entry \(bad)")
            var calls = 0
            let error = #expect(throws: PropertyListError.self) {
                _ = try data.withUnsafeBytes { bytes in
                    try BinaryPropertyListReader().streamXML(bytes: bytes, options: .init(), pieceBytes: 4096) { _ in calls += 1 }
                }
            }
            #expect(error?.code == .unsupportedValue)
            #expect(error?.location == .keyPath("k\(bad).0"))
            if bad == count - 1 { #expect(calls > 0) }
        }
    }

    /// An error the writer throws stops the conversion and comes back as it was thrown.
    @Test func aWritersErrorIsRethrown() throws {
        struct Full: Error, Equatable {}
        let data = try PropertyListValue.array((0..<70_000).map { .string("s\($0)") }).encoded(as: .binary)
        var calls = 0
        #expect(throws: Full()) {
            try PropertyListValue.convert(data, from: .binary, to: .xml) { _ in
                calls += 1
                if calls == 2 { throw Full() }
            }
        }
        #expect(calls == 2)
        let small = try PropertyListValue.array([.string("x")]).encoded(as: .binary)
        #expect(throws: Full()) { try PropertyListValue.convert(small, from: .binary, to: .xml) { _ in throw Full() } }
        #expect(throws: Full()) { try PropertyListValue.convert(small, from: .binary, to: .json) { _ in throw Full() } }
    }
}
