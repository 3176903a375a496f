import Foundation
import PredicateFormat
import Testing

@Suite struct SortTests {
    @Test func localizedStandardIsNumericAware() {
        let sorted = ["file10", "File1", "file2", "file02b"].sorted { SortComparison.localizedStandardCompare.compareStrings($0, $1) < 0 }
        #expect(sorted == ["File1", "file2", "file02b", "file10"])
    }

    @Test func localizedIgnoresDiacriticsFirst() {
        let sorted = ["cote", "côte", "Cote", "coté", "cotd", "cotf"].sorted { SortComparison.localizedCompare.compareStrings($0, $1) < 0 }
        #expect(sorted == ["cotd", "cote", "Cote", "coté", "côte", "cotf"])
    }

    @Test func caseInsensitiveAndBinary() {
        #expect(SortComparison.caseInsensitiveCompare.compareStrings("ÄPFEL", "äpfel") == 0)
        #expect(SortComparison.compare.compareStrings("B", "a") < 0)
        #expect(SortComparison.caseInsensitiveCompare.compareStrings("B", "a") > 0)
    }

    @Test func nilFirstAscendingLastDescending() {
        let ascending = StoreSortDescriptor(keyPath: "x")
        #expect(ascending.compareValues(.null, .integer(-100)) < 0)
        #expect(ascending.compareValues(.integer(1), .string("0")) < 0)
        #expect(ascending.compareValues(.string("z"), .data(Data())) < 0)
        let descending = StoreSortDescriptor(keyPath: "x", ascending: false)
        #expect(descending.compareValues(.null, .integer(-100)) > 0)
    }

    @Test func sqlAndMemoryAgreeOnSample() throws {
        let world = try SampleWorld.make()
        for comparison in SortComparison.allCases {
            for ascending in [true, false] {
                let descriptors = [StoreSortDescriptor(keyPath: "name", ascending: ascending, comparison: comparison)]
                #expect(try world.memorySorted(descriptors) == world.sqlSorted(descriptors), "\(descriptors)")
            }
        }
        let byDepartment = [StoreSortDescriptor(keyPath: "dept.name"), StoreSortDescriptor(keyPath: "age", ascending: false)]
        #expect(try world.sqlSorted(byDepartment) == [4, 6, 3, 5, 1, 2])
        #expect(try world.memorySorted(byDepartment) == [4, 6, 3, 5, 1, 2])
        let byDepartmentKey = [StoreSortDescriptor(keyPath: "dept")]
        #expect(try world.sqlSorted(byDepartmentKey) == [4, 1, 2, 3, 5, 6])
        #expect(try world.memorySorted(byDepartmentKey) == [4, 1, 2, 3, 5, 6])
    }

    @Test func descriptorListComparesSubjects() throws {
        let world = try SampleWorld.make()
        let descriptors = [StoreSortDescriptor(keyPath: "active", ascending: false), StoreSortDescriptor(keyPath: "dept.budget")]
        // Ann (YES, 1000) before ÄPFEL (YES, 5000); Bob (NO) after both; pk 6 (active nil) last when descending.
        #expect(try descriptors.compare(world.people[0], world.people[2]) < 0)
        #expect(try descriptors.compare(world.people[1], world.people[0]) > 0)
        #expect(try descriptors.compare(world.people[5], world.people[1]) > 0)
        #expect(try descriptors.compare(world.people[0], world.people[0]) == 0)
        #expect(throws: PredicateEvaluationError.self) {
            try [StoreSortDescriptor(keyPath: "pets.name")].compare(world.people[0], world.people[1])
        }
    }
}
