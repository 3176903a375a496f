import Container
import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

/// The controller over a real Core Data store.
@Suite struct StoreResultsControllerTests {
    private func cars() throws -> PersistentStore {
        try PersistentStore.openReadOnly(atPath: FixtureModels.store("CoreDataPlus__SampleModel_V1.sqlite")).store
    }

    @Test func sectionsByMakerWithIndexTitlesAndBatches() throws {
        let store = try cars()
        let request = FetchRequest(entityName: "Car", sortDescriptors: [StoreSortDescriptor(keyPath: "maker"),
                                                                          StoreSortDescriptor(keyPath: "numberPlate")])
        let controller = FetchedResultsController(source: try FetchRequestResults(store: store, request: request, sectionKeyPath: "maker"),
                                                  batchSize: 20)
        #expect(try controller.performFetch() == .store)
        let snapshot = controller.snapshot
        #expect(snapshot.sections.map(\.name) == ["Alfa Romeo", "BMW", "FIAT", "Kia", "Lamborghini", "Maserati", "McLaren",
                                                   "Mercedes-Benz", "Renault", "Volkswagen"])
        #expect(snapshot.sections.map(\.ids.count) == [3, 2, 103, 4, 2, 2, 2, 2, 3, 2])
        #expect(controller.sectionIndexTitles == ["A", "B", "F", "K", "L", "M", "R", "V"])
        let fiat = try #require(try controller.object(at: ResultsIndexPath(section: 2, item: 0)))
        #expect(fiat["maker"] == .string("FIAT"))
        #expect(controller.batchesInMemory == 1)
        #expect(try controller.refresh().isEmpty)
    }

    @Test func aSectionKeyPathThatIsNotAnAttributeIsATypedError() throws {
        let store = try cars()
        #expect(throws: StoreError.self) {
            try FetchRequestResults(store: store, request: FetchRequest(entityName: "Car"), sectionKeyPath: "owner")
        }
    }

    /// The seed's warning, made impossible: the same cache name with another
    /// predicate never serves the first predicate's results.
    @Test func changingThePredicateUnderOneCacheNameNeverServesStaleResults() throws {
        let store = try cars()
        let directory = try TemporaryDirectory("frc-store")
        let container = try AppContainer.create(at: directory.url.appendingPathComponent("home"), bundleName: "Cars")
        let cache = ResultsCache(container: container, name: "cars")
        let identifier = try store.storeIdentifier()
        func controller(_ format: String) throws -> FetchedResultsController<FetchRequestResults> {
            let request = FetchRequest(entityName: "Car", predicate: try FormatPredicate(format: format, arguments: []),
                                       sortDescriptors: [StoreSortDescriptor(keyPath: "numberPlate")])
            let source = try FetchRequestResults(store: store, request: request)
            return FetchedResultsController(source: source, cache: (cache, source.fingerprint(storeIdentifier: identifier)))
        }
        let fiat = try controller("maker == 'FIAT'")
        #expect(try fiat.performFetch() == .store)
        #expect(fiat.snapshot.count == 103)
        let again = try controller("maker == 'FIAT'")
        #expect(try again.performFetch() == .cache)
        #expect(again.snapshot == fiat.snapshot)
        let bmw = try controller("maker == 'BMW'")
        #expect(try bmw.performFetch() == .store)
        #expect(bmw.snapshot.count == 2)
    }
}
