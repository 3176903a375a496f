import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList
import Testing

/// Issue 14, findings 11 and 12: a generic graph read from a hostile
/// archive neither crashes when it is freed nor expands shared plain values.
@Suite struct HostileGraphTests {
    /// An archive whose root is a chain of `length` objects, each holding
    /// the next in its field "next".
    static func chain(length: Int) throws -> Data {
        var objects: [PropertyListValue] = ["$null"]
        let classIndex = UInt64(length + 1)
        for index in 1...length {
            var fields: OrderedDictionary<String, PropertyListValue> = ["$class": .uid(PropertyListUID(classIndex))]
            if index < length { fields["next"] = .uid(PropertyListUID(UInt64(index + 1))) }
            objects.append(.dictionary(fields))
        }
        objects.append(["$classname": "Link", "$classes": ["Link", "NSObject"]])
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000,
            "$top": ["root": .uid(PropertyListUID(1))], "$objects": .array(objects),
        ]
        return try archive.encoded(as: .binary)
    }

    @Test func aChainOfAHundredThousandObjectsIsFreedWithoutCrashing() throws {
        let data = try Self.chain(length: 100_000)
        do {
            let unarchiver = try KeyedUnarchiver(data: data)
            let top = try unarchiver.decodeTopLevelGraph()
            guard case .object(let root)? = top["root"] else {
                Issue.record("the root is not an object")
                return
            }
            #expect(root.className == "Link")
        }
        // Everything above is freed here: a recursive teardown would have
        // overflowed the stack (SIGSEGV) before this line.
        #expect(Bool(true))
    }

    @Test func aSharedPlainValueIsConvertedOnce() throws {
        // A field holding nested plain arrays that share their elements:
        // 2^40 leaves if expanded.
        var bomb: PropertyListValue = 1
        for _ in 0..<40 { bomb = .array([bomb, bomb]) }
        let objects: [PropertyListValue] = [
            "$null",
            ["$class": .uid(PropertyListUID(2)), "field": bomb],
            ["$classname": "Holder", "$classes": ["Holder", "NSObject"]],
        ]
        // Written by hand: the binary writer would expand the shared arrays.
        let table = KeyedArchiveTable(top: ["root": .uid(PropertyListUID(1))], objects: objects)
        let unarchiver = KeyedUnarchiver(table: table)
        let started = ContinuousClock.now
        let top = try unarchiver.decodeTopLevelGraph()
        #expect(ContinuousClock.now - started < .seconds(5))
        guard case .object(let holder)? = top["root"], case .array(let level)? = holder["field"] else {
            Issue.record("the field is not a plain array")
            return
        }
        #expect(level.count == 2)
    }
}
