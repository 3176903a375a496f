import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList
import Testing

/// Damaged and hostile archives give a typed error, never a crash.
struct BrokenArchiveTests {
    static let goodObjects: [PropertyListValue] = [
        "$null",
        .dictionary(["$class": .uid(PropertyListUID(3)), "name": .uid(PropertyListUID(2))]),
        "a name",
        .dictionary(["$classname": "Node", "$classes": ["Node", "NSObject"]]),
    ]

    static func archive(archiver: PropertyListValue? = "NSKeyedArchiver", version: PropertyListValue? = 100000,
                        top: PropertyListValue? = .dictionary(["root": .uid(PropertyListUID(1))]),
                        objects: PropertyListValue? = .array(goodObjects)) throws -> Data {
        var root = OrderedDictionary<String, PropertyListValue>()
        root["$archiver"] = archiver
        root["$version"] = version
        root["$top"] = top
        root["$objects"] = objects
        return try PropertyListValue.dictionary(root).encoded(as: .binary)
    }

    func code(_ data: Data) -> KeyedArchiveError.Code? {
        do {
            let unarchiver = try KeyedUnarchiver(data: data)
            _ = try unarchiver.decodeRootGraph()
            _ = try unarchiver.decodeRoot(Node.self)
            return nil
        } catch let error as KeyedArchiveError {
            #expect(!error.description.isEmpty)
            return error.code
        } catch {
            Issue.record("untyped error \(error)")
            return nil
        }
    }

    @Test func theWellFormedBaselineDecodes() throws {
        #expect(code(try Self.archive()) == nil)
        #expect(try KeyedUnarchiver.unarchive(Node.self, from: Self.archive()).name == "a name")
    }

    @Test func envelopeErrors() throws {
        #expect(code(Data("not a plist at all {".utf8)) == .invalidPropertyList)
        #expect(code(try PropertyListValue.array([1]).encoded(as: .binary)) == .notAnArchive)
        #expect(code(try Self.archive(archiver: "NRKeyedArchiver")) == .wrongArchiver)
        #expect(code(try Self.archive(archiver: nil)) == .wrongArchiver)
        #expect(code(try Self.archive(archiver: 7)) == .wrongArchiver)
        #expect(code(try Self.archive(version: 99999)) == .unsupportedVersion)
        #expect(code(try Self.archive(version: nil)) == .unsupportedVersion)
        #expect(code(try Self.archive(top: nil)) == .notAnArchive)
        #expect(code(try Self.archive(top: "root")) == .notAnArchive)
        #expect(code(try Self.archive(objects: nil)) == .notAnArchive)
        #expect(code(try Self.archive(objects: .array([]))) == .notAnArchive)
        #expect(code(try Self.archive(objects: .dictionary([:]))) == .notAnArchive)
    }

    @Test func missingOrNilRoot() throws {
        #expect(code(try Self.archive(top: .dictionary([:]))) == .missingRoot)
        #expect(code(try Self.archive(top: .dictionary(["other": .uid(PropertyListUID(1))]))) == .missingRoot)
        let nilRoot = try Self.archive(top: .dictionary(["root": .uid(PropertyListUID(0))]))
        #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive(Node.self, from: nilRoot) }
        #expect(code(try Self.archive(top: .dictionary(["root": 1]))) == .invalidReference)
    }

    @Test func badReferences() throws {
        #expect(code(try Self.archive(top: .dictionary(["root": .uid(PropertyListUID(99))]))) == .invalidReference)
        #expect(code(try Self.archive(top: .dictionary(["root": .uid(PropertyListUID(UInt64.max))]))) == .invalidReference)
        var objects = Self.goodObjects
        objects[1] = .dictionary(["$class": .uid(PropertyListUID(3)), "name": .uid(PropertyListUID(40))])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidReference)
        objects[1] = .dictionary(["$class": .uid(PropertyListUID(3)), "name": .array([.uid(PropertyListUID(40))])])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidReference)
    }

    @Test func missingAndInvalidClasses() throws {
        var objects = Self.goodObjects
        objects[1] = .dictionary(["name": .uid(PropertyListUID(2))])
        #expect(code(try Self.archive(objects: .array(objects))) == .missingClass)
        objects[1] = .dictionary(["$class": "Node", "name": .uid(PropertyListUID(2))])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidClass)
        objects[1] = .dictionary(["$class": .uid(PropertyListUID(2)), "name": .uid(PropertyListUID(2))])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidClass)
        objects[1] = .dictionary(["$class": .uid(PropertyListUID(0))])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidClass)
        objects = Self.goodObjects
        objects[3] = .dictionary(["$classname": 5])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidClass)
        objects[3] = .dictionary(["$classname": "Node", "$classes": "Node"])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidClass)
        objects[3] = .dictionary(["$classname": "Node", "$classes": [1]])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidClass)
    }

    @Test func bareArraysAndUIDsInObjects() throws {
        var objects = Self.goodObjects
        objects[1] = .array([1, 2])
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidObject)
        objects[1] = .uid(PropertyListUID(1))
        #expect(code(try Self.archive(objects: .array(objects))) == .invalidObject)
    }

    @Test func typeMismatches() throws {
        let data = try Self.archive()
        let error = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive([String].self, from: data) }
        #expect(error?.code == .typeMismatch)
        let stringError = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive(Int.self, from: data) }
        #expect(stringError?.code == .typeMismatch)
        var objects = Self.goodObjects
        objects[1] = .dictionary(["$class": .uid(PropertyListUID(3)), "name": 12])
        let inline = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive(Node.self, from: Self.archive(objects: .array(objects))) }
        #expect(inline?.code == .typeMismatch)
        #expect(inline?.key == "name")
    }

    @Test func malformedFoundationObjectsStayGeneric() throws {
        let objects: [PropertyListValue] = [
            "$null",
            .dictionary(["$class": .uid(PropertyListUID(2)), "NS.keys": [.uid(PropertyListUID(3))], "NS.objects": []]),
            .dictionary(["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]]),
            "key",
        ]
        let data = try Self.archive(objects: .array(objects))
        let root = try KeyedUnarchiver(data: data).decodeRootGraph()
        #expect(root.object?.className == "NSDictionary")
        #expect(root.foundationValue == nil)
        #expect(root["NS.keys"] != nil)
        let typed = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive([String: String].self, from: data) }
        #expect(typed?.code == .typeMismatch)
    }

    @Test func deepNestingIsLimited() throws {
        // 2,000 nested arrays: each refers to the next.
        var objects: [PropertyListValue] = ["$null"]
        let count = 2000
        for index in 1...count {
            let next: PropertyListValue = index == count ? .array([]) : .array([.uid(PropertyListUID(UInt64(index + 1)))])
            objects.append(.dictionary(["$class": .uid(PropertyListUID(UInt64(count + 1))), "NS.objects": next]))
        }
        objects.append(.dictionary(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]))
        let data = try Self.archive(objects: .array(objects))
        let error = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive(PropertyListValue.self, from: data) }
        #expect(error?.code == .depthLimitExceeded)
        // The generic reader walks it without recursion.
        var value = try KeyedUnarchiver(data: data).decodeRootGraph()
        var depth = 0
        while let next = value.elements?.first { value = next; depth += 1 }
        #expect(depth == count - 1)
    }

    @Test func exponentialSharingCostsLinearTime() throws {
        // Each array holds the next one twice: 2^60 paths, 61 objects.
        var objects: [PropertyListValue] = ["$null"]
        let levels = 60
        for index in 1...levels {
            let next = PropertyListValue.uid(PropertyListUID(UInt64(index + 1)))
            objects.append(.dictionary(["$class": .uid(PropertyListUID(UInt64(levels + 2))), "NS.objects": [next, next]]))
        }
        objects.append("leaf")
        objects.append(.dictionary(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]))
        let data = try Self.archive(objects: .array(objects))
        let typed = try KeyedUnarchiver.unarchive([[[PropertyListValue]]].self, from: data)
        #expect(typed.count == 2)
        _ = try KeyedUnarchiver(data: data).decodeRootGraph()
    }
}
