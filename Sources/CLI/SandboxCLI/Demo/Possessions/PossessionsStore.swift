import Container
import Foundation
import PredicateFormat
import Store

/// The Possessions inventory in a store in Core Data's layout,
/// `Documents/Possessions.sqlite`, next to the keyed archive: what the seed
/// documents advise for a list the user searches.
enum PossessionsStore {
    static let path = ContainerDirectory.documents.relativePath + "/Possessions.sqlite"
    static let entity = "Possession"

    /// The app's data model, as its `.xcdatamodel` would define it.
    static let model = ObjectModel(entities: [
        EntityDescription(name: entity, attributes: [
            AttributeDescription(name: "possessionName", type: .string, isOptional: false),
            AttributeDescription(name: "serialNumber", type: .string, isOptional: false),
            AttributeDescription(name: "valueInDollars", type: .integer32, isOptional: false, defaultValue: "0"),
            AttributeDescription(name: "dateCreated", type: .date),
            AttributeDescription(name: "imageKey", type: .string),
        ], uniquenessConstraints: [["serialNumber"]]),
    ], versionIdentifiers: ["1"])

    static func open(in container: AppContainer) throws -> PersistentStore {
        let file = container.url(forRelativePath: path).path
        if container.fileExists(path) { return try PersistentStore.open(atPath: file, model: model) }
        return try PersistentStore.create(atPath: file, model: model)
    }

    /// Inserts the possessions the store does not have yet (by serial
    /// number), in one save. Returns how many were inserted.
    @discardableResult
    static func save(_ possessions: [Possession], in container: AppContainer) throws -> Int {
        let store = try open(in: container)
        let stored = Set(try store.fetchDictionaries(FetchRequest(entityName: entity, propertiesToFetch: ["serialNumber"]))
            .compactMap { if case .string(let serial) = $0["serialNumber"] { serial } else { nil } })
        let context = ObjectContext(store: store)
        var inserted = 0
        for possession in possessions where !stored.contains(possession.serialNumber) {
            _ = try context.insert(entity, values: [
                "possessionName": .string(possession.possessionName),
                "serialNumber": .string(possession.serialNumber),
                "valueInDollars": .integer(Int64(possession.valueInDollars)),
                "dateCreated": .date(possession.dateCreated),
                "imageKey": .string(possession.imageKey),
            ])
            inserted += 1
        }
        if context.hasChanges { _ = try context.save() }
        return inserted
    }

    /// The search box: `possessionName contains[c] %@`, sorted by name.
    static func search(_ text: String, in container: AppContainer) throws -> [String] {
        let store = try open(in: container)
        let request = FetchRequest(entityName: entity,
                                   predicate: try FormatPredicate(format: "possessionName contains[c] %@", text),
                                   sortDescriptors: [StoreSortDescriptor(keyPath: "possessionName", comparison: .localizedStandardCompare)])
        return try store.fetch(request).compactMap { if case .string(let name) = $0["possessionName"] { name } else { nil } }
    }
}
