import Foundation
import KeyedArchive
import PropertyList
import Testing

/// Archives whose objects refer back to themselves read as real cycles.
struct CyclicFixtureTests {
    @Test func applesSelfContainingMutableArray() throws {
        let root = try KeyedUnarchiver(data: ArchiveFixtures.data("mw_nska_circularReference.plist")).decodeRootGraph()
        let array = try #require(root.object)
        #expect(array.className == "NSMutableArray")
        let elements = try #require(root.elements)
        #expect(elements.count == 1)
        #expect(elements[0].object === array)
    }

    @Test func selfReferencingCustomObject() throws {
        let root = try KeyedUnarchiver(data: ArchiveFixtures.data("bpylist2_circular_archive.plist")).decodeRootGraph()
        let object = try #require(root.object)
        #expect(object.className == "crap.Foo")
        #expect(object["recursive"]?.object === object)
        #expect(object["title"]?.stringValue == "hello")
    }

    @Test func aValueTypeCannotHoldACycleAndSaysSo() throws {
        let data = try ArchiveFixtures.data("mw_nska_circularReference.plist")
        let error = #expect(throws: KeyedArchiveError.self) {
            _ = try KeyedUnarchiver.unarchive(PropertyListValueArray.self, from: data)
        }
        #expect(error?.code == .cycle)
    }

    @Test func cyclesSurviveAWriteAndARead() throws {
        let array = ArchivedObject(className: "NSMutableArray", superclasses: ["NSArray", "NSObject"])
        array["NS.objects"] = .array([.object(array), .string("tail")])
        let data = try KeyedArchiver.archivedData(withRootObject: array)
        let table = try KeyedArchiveTable(data: data)
        #expect(table.objects.count == 4)   // $null, the array, "tail", its class
        let again = try #require(try KeyedUnarchiver(data: data).decodeRootGraph().object)
        #expect(again.foundationValue.map { if case .array(let items) = $0 { items.first?.object === again } else { false } } == true)
    }
}

typealias PropertyListValueArray = [PropertyList.PropertyListValue]
