extension StoreLayout {
    /// Takes each entity's number from a store's `Z_PRIMARYKEY` rows, found
    /// by the entity's name or its renaming identifier; the derived number
    /// stays where the store names no such entity.
    ///
    /// Core Data keeps the old name after a lightweight migration renames
    /// an entity (CoreDataPlus's SampleModel_V2 still says
    /// `ExpensiveSportCar` for `LuxuryCar`), and old stores may number
    /// entities differently from today's rules.
    public mutating func adoptEntityNumbers(_ rows: [PrimaryKeyRow]) {
        var renumbering: [Int: Int] = [:]
        for entity in entities {
            let description = model.entity(named: entity.name)
            let row = rows.first { $0.name == entity.name }
                ?? description?.renamingIdentifier.flatMap { old in rows.first { $0.name == old } }
            if let row, row.entityNumber != entity.number { renumbering[entity.number] = row.entityNumber }
        }
        guard !renumbering.isEmpty else { return }
        func renumber(_ number: Int) -> Int { renumbering[number] ?? number }
        entities = entities.map { entity in
            var copy = entity
            copy.number = renumber(entity.number)
            copy.superNumber = entity.superNumber == 0 ? 0 : renumber(entity.superNumber)
            copy.entityNumbers = entity.entityNumbers.map(renumber)
            return copy
        }
    }
}
