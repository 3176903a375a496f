import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

/// Fetch requests on Core Data's own stores, opened read-only with their cached models.
@Suite struct FetchRequestTests {
    private func cars() throws -> PersistentStore {
        try PersistentStore.openReadOnly(atPath: FixtureModels.store("CoreDataPlus__SampleModel_V1.sqlite")).store
    }

    @Test func predicateSortLimitAndOffset() throws {
        let store = try cars()
        var request = FetchRequest(entityName: "Car")
        request.predicate = try FormatPredicate(format: "maker ==[c] %@", "fiat")
        #expect(try store.count(request) == 103)
        request.sortDescriptors = [StoreSortDescriptor(keyPath: "numberPlate", ascending: false)]
        request.fetchLimit = 5
        request.fetchOffset = 2
        let page = try store.fetch(request)
        #expect(page.count == 5)
        let plates = page.compactMap { if case .string(let plate) = $0["numberPlate"] { plate } else { nil } }
        #expect(plates == plates.sorted(by: >))
        #expect(try store.count(request) == 5)
        let all = try store.fetch(FetchRequest(entityName: "Car", predicate: request.predicate,
                                               sortDescriptors: request.sortDescriptors))
        #expect(page == Array(all[2..<7]))
    }

    @Test func subentitiesMatchUnlessExcluded() throws {
        let store = try cars()
        #expect(try store.count(FetchRequest(entityName: "Car")) == 125)
        #expect(try store.count(FetchRequest(entityName: "SportCar")) == 10)
        #expect(try store.count(FetchRequest(entityName: "SportCar", includesSubentities: false)) == 5)
        let expensive = try store.fetchObjectIDs(FetchRequest(entityName: "Car",
                                                              predicate: try FormatPredicate(format: "maker IN %@", AttributeValue.collection([.string("Lamborghini"), .string("McLaren")]))))
        #expect(expensive.count == 4)
    }

    @Test func keyPathsThroughRelationshipsAndAggregates() throws {
        let store = try cars()
        let owners = try store.fetch(FetchRequest(entityName: "Person", predicate: try FormatPredicate(format: "cars.@count >= 10")))
        let counted = try owners.map { try store.destinations(of: $0.objectID, relationship: "cars").count }
        #expect(counted.allSatisfy { $0 >= 10 })
        let alexCars = try store.count(FetchRequest(entityName: "Car", predicate: try FormatPredicate(format: "owner.firstName == %@", "Alex")))
        let alex = try #require(try store.fetch(FetchRequest(entityName: "Person", predicate: try FormatPredicate(format: "firstName == 'Alex'"))).first)
        #expect(alexCars == (try store.destinations(of: alex.objectID, relationship: "cars").count))
    }

    /// SQL and in-memory evaluation agree on every car, for a set of formats.
    @Test func sqlAgreesWithInMemoryEvaluation() throws {
        let store = try cars()
        let everything = try store.fetch(FetchRequest(entityName: "Car"))
        for format in ["maker BEGINSWITH[c] 'm'", "numberPlate CONTAINS '1'", "maker ENDSWITH 'i' OR model == nil",
                       "NOT (maker IN {'FIAT', 'BMW'})", "maker LIKE[c] '*e*'", "markedForDeletionAsOf != nil",
                       "maker MATCHES '[A-M].*'", "TRUEPREDICATE", "FALSEPREDICATE"] {
            let predicate = try FormatPredicate(format: format, arguments: [])
            let fromSQL = Set(try store.fetchObjectIDs(FetchRequest(entityName: "Car", predicate: predicate)))
            let inMemory = Set(try everything.filter { try predicate.evaluate(with: $0, in: store) }.map(\.objectID))
            #expect(fromSQL == inMemory, "\(format)")
        }
    }

    @Test func dictionaryResults() throws {
        let store = try cars()
        let rows = try store.fetchDictionaries(FetchRequest(entityName: "Person", sortDescriptors: [StoreSortDescriptor(keyPath: "firstName")],
                                                            fetchLimit: 2, propertiesToFetch: ["firstName", "lastName"]))
        #expect(rows.count == 2)
        #expect(rows[0] == ["firstName": .string("Alex"), "lastName": .string("Rathbun")])
        #expect(throws: StoreError.self) {
            try store.fetchDictionaries(FetchRequest(entityName: "Person", propertiesToFetch: ["nope"]))
        }
    }

    @Test func batchedFetchReadsIdentifiersFirstThenBatches() throws {
        let store = try cars()
        let results = try store.fetchBatched(FetchRequest(entityName: "Car", sortDescriptors: [StoreSortDescriptor(keyPath: "numberPlate")],
                                                          fetchBatchSize: 20))
        #expect(results.count == 125)
        #expect(results.batchesRead == 0)
        let first = try results.object(at: 0)
        _ = try results.object(at: 19)
        #expect(results.batchesRead == 1)
        let last = try results.object(at: 124)
        #expect(results.batchesRead == 2)
        let all = try store.fetch(FetchRequest(entityName: "Car", sortDescriptors: [StoreSortDescriptor(keyPath: "numberPlate")]))
        #expect(first == all[0] && last == all[124])
        #expect(throws: StoreError.self) { try results.object(at: 125) }
    }

    @Test func aBadKeyIsATypedError() throws {
        let store = try cars()
        let error = try #require(throws: StoreError.self) {
            try store.fetch(FetchRequest(entityName: "Car", predicate: try FormatPredicate(format: "colour == 'red'")))
        }
        #expect(error.code == .invalidValue)
        #expect("\(error)".contains("colour"))
        #expect(throws: StoreError.self) { try store.fetch(FetchRequest(entityName: "Boat")) }
    }
}
