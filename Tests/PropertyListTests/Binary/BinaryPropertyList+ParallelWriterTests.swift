import Foundation
import OrderedCollections
import TestSupport
import Testing
@testable import PropertyList

/// The two-thread binary writer must write exactly the serial writer's bytes.
@Suite struct BinaryPropertyListParallelWriterTests {
    /// A writer that never takes the parallel path.
    static var serialWriter: BinaryPropertyListWriter {
        var writer = BinaryPropertyListWriter()
        writer.parallelThreshold = .max
        return writer
    }

    /// A writer that takes the parallel path whenever the root can be split.
    static var parallelWriter: BinaryPropertyListWriter {
        var writer = BinaryPropertyListWriter()
        writer.parallelThreshold = 0
        return writer
    }

    /// Writes `value` both ways, checks that the parallel path ran and wrote
    /// the serial bytes, and that they read back as `value`. Returns whether
    /// the halves were merged, rather than the value written again serially
    /// because the census' reference width was too wide.
    @discardableResult
    func expectSameBytes(_ value: PropertyListValue, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let writer = BinaryPropertyListWriter()
        let census = try PropertyListCensus(of: value, format: .binary, maximumObjectCount: writer.maximumObjectCount,
                                            maximumDepth: writer.maximumDepth, recordingRootChildren: true)
        let serial = try Self.serialWriter.write(value)
        let parallel = try #require(try writer.writeInParallel(value, census: census), sourceLocation: sourceLocation)
        #expect(parallel == serial, "parallel output differs from serial", sourceLocation: sourceLocation)
        let readBack = try BinaryPropertyListReader().read(parallel)
        #expect(readBack.firstDifference(from: value) == nil, sourceLocation: sourceLocation)
        // The trailer's reference size sits 25 bytes before the end.
        return Int(parallel[parallel.count - 25]) == BinaryPlistEmitter.byteWidth(UInt64(census.objects))
    }

    /// The error `write` throws, if any.
    func writeError(_ writer: BinaryPropertyListWriter, _ value: PropertyListValue) -> PropertyListError? {
        do {
            _ = try writer.write(value)
            return nil
        } catch {
            return error as? PropertyListError
        }
    }

    @Test func largeDictionaryRootMatchesSerial() throws {
        // Over 65,536 objects even once uniqued: 4-byte references either way.
        let value = PropertyListValue.dictionary(LargeDocument.entries(count: 6_000, seed: 1))
        let census = try PropertyListCensus(of: value, format: .binary, maximumObjectCount: .max, recordingRootChildren: true)
        #expect(census.objects >= BinaryPropertyListWriter().parallelThreshold)
        #expect(try expectSameBytes(value))
        // The default writer picks the parallel path for it on its own.
        #expect(try BinaryPropertyListWriter().write(value) == Self.serialWriter.write(value))
    }

    @Test func largeArrayRootMatchesSerial() throws {
        // Fewer than 65,536 objects: 2-byte references.
        #expect(try expectSameBytes(.array(Array(LargeDocument.entries(count: 1_500, seed: 2).values))))
    }

    @Test func backHalfWhoseScalarsAllExistInFrontMatchesSerial() throws {
        let half = PropertyListValue.dictionary(LargeDocument.entries(count: 300, seed: 3))
        #expect(try expectSameBytes([half, half]))
        #expect(try expectSameBytes(["front": half, "back": half]))
        #expect(try expectSameBytes([half, half, half, 7, "entry-000001"]))
    }

    @Test func randomValuesMatchSerial() throws {
        var merged = 0
        for seed in UInt64(1)...60 {
            var random = RandomPropertyList(seed: seed, profile: .binary)
            random.maximumDepth = 5
            let count = Int.random(in: 2...12, using: &random.generator)
            let children = (0..<count).map { _ in random.value() }
            merged += try expectSameBytes(.array(children)) ? 1 : 0
            var entries = OrderedDictionary<String, PropertyListValue>()
            for child in children { entries[random.string() + "\(entries.count)"] = child }
            merged += try expectSameBytes(.dictionary(entries)) ? 1 : 0
        }
        #expect(merged >= 60, "most random values should be merged, not rewritten serially")
    }

    @Test func smallContainersAndLongCountsMatchSerial() throws {
        #expect(try expectSameBytes([1, 2]))
        #expect(try expectSameBytes(["a": 1, "b": "a"]))
        #expect(try expectSameBytes([[], [:], .array(Array(repeating: "x", count: 40)),
                                     .array((0..<300).map { .integer(PropertyListInteger(Int64($0))) })]))
    }

    @Test func overestimatedReferenceWidthFallsBackToTheSerialBytes() throws {
        // 301 objects by the census (2-byte references), 2 once uniqued (1 byte).
        let value = PropertyListValue.array(Array(repeating: "same", count: 300))
        #expect(try !expectSameBytes(value))
        let bytes = [UInt8](try Self.parallelWriter.write(value))
        #expect(bytes[bytes.count - 25] == 1, "reference size in the trailer")
    }

    @Test func unrepresentableDatesThrowTheSerialError() throws {
        let bad = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: .infinity))
        let worse = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 1e300))
        let values: [PropertyListValue] = [
            [1, 2, 3, ["deep": [bad]]],
            [["deep": [bad]], 2, 3, ["deep": [worse]]],
            ["a": 1, "b": bad, "c": 3, "d": worse],
            ["a": 1, "b": 2, "c": 3, "d": [worse]],
        ]
        for value in values {
            let serial = writeError(Self.serialWriter, value)
            #expect(serial != nil)
            #expect(writeError(Self.parallelWriter, value) == serial)
        }
    }

    @Test func limitsThrowTheSerialError() throws {
        var serial = Self.serialWriter
        var parallel = Self.parallelWriter
        serial.maximumDepth = 3
        parallel.maximumDepth = 3
        let deep: PropertyListValue = [1, [2, [3, [4, [5]]]], [[["x"]]]]
        #expect(writeError(serial, deep)?.code == .depthLimitExceeded)
        #expect(writeError(parallel, deep) == writeError(serial, deep))
        serial.maximumObjectCount = 50
        parallel.maximumObjectCount = 50
        let many = PropertyListValue.array([.array(Array(repeating: 1, count: 30)), .array(Array(repeating: 2, count: 30))])
        #expect(writeError(serial, many)?.code == .objectLimitExceeded)
        #expect(writeError(parallel, many) == writeError(serial, many))
    }

    @Test func parallelCensusMatchesSerial() throws {
        var random = RandomPropertyList(seed: 7, profile: .binary)
        let values: [PropertyListValue] = [
            .dictionary(LargeDocument.entries(count: 500, seed: 4)),
            .array(Array(LargeDocument.entries(count: 501, seed: 5).values)),
            .array((0..<9).map { _ in random.value() }),
        ]
        for value in values {
            let serial = try PropertyListCensus(of: value, format: .binary, maximumObjectCount: .max, recordingRootChildren: true)
            // On two threads, and in two parts on this thread.
            for writer in [Self.parallelWriter, Self.serialWriter] {
                let parts = try #require(writer.censusInParts(of: value))
                #expect(parts.objects == serial.objects)
                #expect(parts.scalars == serial.scalars)
                #expect(parts.keys == serial.keys)
                #expect(parts.references == serial.references)
                #expect(parts.scalarBytes == serial.scalarBytes)
                #expect(parts.rootChildEnds == serial.rootChildEnds)
            }
        }
        #expect(BinaryPropertyListWriter().censusInParts(of: "scalar") == nil)
    }

    @Test func rootsThatCannotBeSplitTakeTheSerialPath() throws {
        let census = try PropertyListCensus(of: ["only"], format: .binary, maximumObjectCount: .max, recordingRootChildren: true)
        #expect(try BinaryPropertyListWriter().writeInParallel(["only"], census: census) == nil)
        #expect(try Self.parallelWriter.write("scalar") == Self.serialWriter.write("scalar"))
        #expect(try Self.parallelWriter.write(["only"]) == Self.serialWriter.write(["only"]))
    }
}

/// A seeded document shaped like the benchmark's large one: many entries of
/// every scalar type, unique and repeated, with nested containers.
enum LargeDocument {
    static let words = ["alpha", "beta", "gamma", "café", "naïve", "日本", "Москва", "emoji🙂", "Straße", "delta"]

    static func entries(count: Int, seed: UInt64) -> OrderedDictionary<String, PropertyListValue> {
        var generator = SeededGenerator(seed: seed)
        var entries = OrderedDictionary<String, PropertyListValue>()
        for index in 0..<count {
            entries[String(format: "entry-%06d", index)] = entry(index, using: &generator)
        }
        return entries
    }

    static func entry(_ index: Int, using generator: inout SeededGenerator) -> PropertyListValue {
        let word = { (generator: inout SeededGenerator) in words.randomElement(using: &generator) ?? "" }
        let name = "\(word(&generator)) \(word(&generator)) #\(UInt32.random(in: 0...99_999, using: &generator))"
        return [
            "name": .string(name),
            "id": .integer(PropertyListInteger(Int64.random(in: -(1 << 40)...(1 << 40), using: &generator))),
            "negative": .integer(PropertyListInteger(-Int64(index) - 1)),
            "huge": .integer(PropertyListInteger(UInt64(Int64.max) + UInt64(index) + 1)),
            "score": .real(Double.random(in: -1000...1000, using: &generator)),
            "ratio": .float(Float(index % 9) / 4),
            "flag": .bool(index % 3 == 0),
            "when": .date(Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.5)),
            "blob": .data(Data((0..<Int.random(in: 0...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })),
            "owner": .uid(PropertyListUID(UInt64(index % 40))),
            "tags": .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in .string(word(&generator)) }),
            "nested": ["scores": .array((0..<(index % 4)).map { .integer(PropertyListInteger(Int64($0 * 10))) }),
                       "label": .string(word(&generator)), "long": .string(String(repeating: "é", count: 15 + index % 3))],
        ]
    }
}
