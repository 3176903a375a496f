import Foundation
import PredicateFormat
import TestSupport
import Testing

/// SQL and in-memory evaluation agree exactly on 10,000 random records, for
/// random predicates and random sorts.
@Suite(.serialized) struct PropertyTests {
    static let world = Result { try RandomWorld.make(count: 10_000, seed: 2026) }

    @Test func randomPredicatesAgree() throws {
        let world = try Self.world.get()
        var predicates = RandomPredicateGenerator(generator: SeededGenerator(seed: 11))
        var nonTrivial = 0
        for _ in 0..<120 {
            let (format, arguments) = predicates.predicate()
            let predicate = try FormatPredicate(format: format, arguments: arguments)
            let memory = try world.memoryMatches(predicate)
            let sql = try world.sqlMatches(predicate)
            #expect(memory == sql, "\(predicate)  memory \(memory.count) sql \(sql.count) first difference \(Set(memory).symmetricDifference(sql).sorted().prefix(5))")
            if memory.count > 0 && memory.count < world.people.count { nonTrivial += 1 }
            #expect(try FormatPredicate(format: predicate.description) == predicate)
        }
        // The generator must produce selective predicates, not only all-or-nothing ones.
        #expect(nonTrivial > 60)
    }

    @Test func randomSortsAgree() throws {
        let world = try Self.world.get()
        var predicates = RandomPredicateGenerator(generator: SeededGenerator(seed: 12))
        for _ in 0..<16 {
            let descriptors = predicates.sortDescriptors()
            #expect(try world.memorySorted(descriptors) == world.sqlSorted(descriptors), "\(descriptors)")
        }
    }

    @Test func filteredSortedLimitedAgree() throws {
        let world = try Self.world.get()
        let predicate = try FormatPredicate(format: "name CONTAINS[c] %@", "a")
        let descriptors = [StoreSortDescriptor(keyPath: "name", comparison: .localizedCaseInsensitiveCompare)]
        let memory = try world.memorySorted(descriptors).filter { pk in
            try predicate.evaluate(with: world.people[Int(pk) - 1])
        }
        #expect(try world.sqlSorted(descriptors, predicate: predicate, limit: 50) == Array(memory.prefix(50)))
    }
}
