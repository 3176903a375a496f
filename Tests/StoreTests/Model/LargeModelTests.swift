import Foundation
import Store
import Testing

@Suite struct LargeModelTests {
    /// A long chain of entities, each related to the next, archives and
    /// reads back: nesting in the archive grows with the chain.
    @Test func aThousandChainedEntitiesRoundTrip() throws {
        let count = 1000
        let entities = (0..<count).map { index in
            EntityDescription(
                name: "E\(index)",
                attributes: [AttributeDescription(name: "value", type: .integer64)],
                relationships: (index + 1 < count
                    ? [RelationshipDescription(name: "next", destinationEntityName: "E\(index + 1)", inverseName: "previous")] : [])
                    + (index > 0 ? [RelationshipDescription(name: "previous", destinationEntityName: "E\(index - 1)", inverseName: "next")] : []))
        }
        let model = ObjectModel(entities: entities)
        let again = try ObjectModel(modelCache: model.modelCacheData())
        #expect(again == model)
    }
}
