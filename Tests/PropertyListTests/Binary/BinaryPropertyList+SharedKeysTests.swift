import Foundation
import OrderedCollections
import Testing
@testable import PropertyList

/// Dictionaries that reference the same key objects in the same order share
/// one decoded keys array; nothing else about them may change.
@Suite struct BinaryPropertyListSharedKeysTests {
    /// `[{a: 1, b: 2}, {a: 3, b: 4}, {b: 5, a: 6}, {a: 7, a: 8}, {a: 9, a: 10}]`, with
    /// "a" and "b" stored once and referenced by every dictionary.
    func records() -> Data {
        var builder = BinaryPlistBuilder()
        _ = builder.add([0xA5, 1, 2, 3, 4, 5])          // 0: root
        _ = builder.add([0xD2, 6, 7, 8, 9])             // 1: {a: 1, b: 2}
        _ = builder.add([0xD2, 6, 7, 10, 11])           // 2: {a: 3, b: 4}, same key references
        _ = builder.add([0xD2, 7, 6, 12, 13])           // 3: {b: 5, a: 6}, same count, other order
        _ = builder.add([0xD2, 6, 6, 14, 15])           // 4: {a: 7, a: 8}
        _ = builder.add([0xD2, 6, 6, 16, 17])           // 5: {a: 9, a: 10}, same repeated key
        _ = builder.add([0x51, UInt8(ascii: "a")])      // 6
        _ = builder.add([0x51, UInt8(ascii: "b")])      // 7
        for number in 1...10 { _ = builder.add([0x10, UInt8(number)]) }  // 8...17
        return builder.build()
    }

    @Test func recordsWithTheSameKeyObjectsDecodeEachTheirOwnValues() throws {
        let value = try BinaryPropertyListReader().read(records())
        #expect(value == [["a": 1, "b": 2], ["a": 3, "b": 4], ["b": 5, "a": 6], ["a": 8], ["a": 10]])
        guard case .array(let elements) = value else {
            Issue.record("the root is not an array")
            return
        }
        #expect(elements[2].dictionaryValue.map { Array($0.keys) } == ["b", "a"])
    }

    @Test func sharedKeysAreOneArray() throws {
        guard case .array(let elements) = try BinaryPropertyListReader().read(records()),
              let first = elements[0].dictionaryValue, let second = elements[1].dictionaryValue else {
            Issue.record("the root is not an array of dictionaries")
            return
        }
        let firstStorage = first.keys.elements.withUnsafeBufferPointer { $0.baseAddress }
        let secondStorage = second.keys.elements.withUnsafeBufferPointer { $0.baseAddress }
        #expect(firstStorage == secondStorage)
    }

    @Test func recordsSharingKeysEncodeAsRecordsWithTheirOwnKeys() throws {
        let shared = try BinaryPropertyListReader().read(records())
        let separate = rebuilt(shared)
        #expect(try BinaryPropertyListWriter().write(shared) == (try BinaryPropertyListWriter().write(separate)))
        // Many records, so the writer's shortcut is taken again and again.
        var builder = BinaryPlistBuilder()
        builder.refSize = 2
        builder.offsetSize = 2
        let recordCount = 300
        _ = builder.add([0xAF, 0x11, 0x01, 0x2C] + (1...recordCount).flatMap { BinaryPlistBuilder.bigEndian(UInt64($0), size: 2) })
        for number in 0..<recordCount {
            let value = BinaryPlistBuilder.bigEndian(UInt64(recordCount + 3 + number % 7), size: 2)
            _ = builder.add([0xD2] + BinaryPlistBuilder.bigEndian(UInt64(recordCount + 1), size: 2)
                            + BinaryPlistBuilder.bigEndian(UInt64(recordCount + 2), size: 2) + value + value)
        }
        _ = builder.add([0x54] + Array("name".utf8))
        _ = builder.add([0x54] + Array("size".utf8))
        for number in 0..<7 { _ = builder.add([0x10, UInt8(number)]) }
        let many = try BinaryPropertyListReader().read(builder.build())
        #expect(try BinaryPropertyListWriter().write(many) == (try BinaryPropertyListWriter().write(rebuilt(many))))
    }

    /// `value` with every dictionary built afresh, so no two share key storage.
    func rebuilt(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .array(let elements): return .array(elements.map(rebuilt))
        case .dictionary(let entries):
            var copy = OrderedDictionary<String, PropertyListValue>()
            for (key, element) in entries { copy[String(decoding: Array(key.utf8), as: UTF8.self)] = rebuilt(element) }
            return .dictionary(copy)
        default: return value
        }
    }
}
