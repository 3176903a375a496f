import Store
import Testing

@Suite struct MigrationPlanTests {
    static func model(_ file: String) throws -> ObjectModel {
        try ObjectModel(contentsFile: ModelFixtures.modelPath(file + ".xcdatamodel_contents"))
    }

    static let migrationTests = ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"].map { "CoreDataMigrationTests__Model.xcdatamodeld_\($0)" }

    @Test func fiveVersionsRenameStepByStep() throws {
        let models = try Self.migrationTests.map(Self.model)
        let plans = try MigrationPlan.chain(models)
        #expect(plans.count == 4)
        let names = ["v1_0_0_name", "v1_1_0_name", "v1_1_2_name", "v1_2_0_name", "v2_0_0_name"]
        for (index, plan) in plans.enumerated() {
            #expect(plan.needsMigration)
            #expect(plan.removedEntities.isEmpty && plan.checks.isEmpty)
            let mapping = try #require(plan.mapping(forEntity: "BasicEntity"))
            #expect(mapping.kind == .copy && !mapping.isUnchanged)
            #expect(mapping.attributes == [AttributeMapping(name: names[index + 1], type: .string, source: .attribute(names[index]),
                                                            defaultValue: nil, fillsNullsWithDefault: false)])
            #expect(mapping.attributes[0].isRenamed && mapping.removedAttributes.isEmpty)
        }
        // Renaming identifiers name the previous version only: skipping versions loses the value.
        let direct = try MigrationPlan(from: models[0], to: models[4])
        let mapping = try #require(direct.mapping(forEntity: "BasicEntity"))
        #expect(mapping.attributes.first?.source == .defaultValue)
        #expect(mapping.removedAttributes == ["v1_0_0_name"])
    }

    @Test func aModelMigratesToItselfWithNothingToDo() throws {
        for file in Self.migrationTests {
            let model = try Self.model(file)
            let plan = try MigrationPlan(from: model, to: model)
            #expect(!plan.needsMigration)
            #expect(plan.entityMappings.allSatisfy { $0.isUnchanged && $0.kind == .copy && $0.removedAttributes.isEmpty })
        }
    }

    @Test func expensiveSportCarBecomesLuxuryCar() throws {
        let v1 = try Self.model("CoreDataPlus__SampleModel.xcdatamodeld_SampleModel")
        let v2 = try Self.model("CoreDataPlus__SampleModel.xcdatamodeld_SampleModel2")
        let plan = try MigrationPlan(from: v1, to: v2)
        #expect(plan.removedEntities.isEmpty)
        let luxury = try #require(plan.mapping(forEntity: "LuxuryCar"))
        #expect(luxury.kind == .rename(from: "ExpensiveSportCar") && luxury.sourceEntity == "ExpensiveSportCar")
        #expect(luxury.attributes.map(\.source) == [.attribute("isLimitedEdition")])
        let car = try #require(plan.mapping(forEntity: "Car"))
        #expect(car.kind == .copy)
        #expect(car.removedAttributes == ["color"])   // currentDrivingSpeed was transient: never stored
        #expect(plan.mapping(forEntity: "Person")?.removedAttributes == ["id"])
        #expect(plan.checks.isEmpty)
        // What the migrated store records: the destination's hashes.
        let migrated = try StoreMetadata(propertyList: ModelFixtures.modelRows(of: "CoreDataPlus__SampleModel_V2.sqlite").metadata)
        #expect(plan.destinationHashes == migrated.versionHashes)
        let original = try StoreMetadata(propertyList: ModelFixtures.modelRows(of: "CoreDataPlus__SampleModel_V1.sqlite").metadata)
        #expect(plan.sourceHashes == original.versionHashes)
    }

    @Test func sampleModelThreeAddsAMakerAndAManyToMany() throws {
        let v2 = try Self.model("CoreDataPlus__SampleModel.xcdatamodeld_SampleModel2")
        let v3 = try Self.model("CoreDataPlus__SampleModel.xcdatamodeld_SampleModel3")
        let plan = try MigrationPlan(from: v2, to: v3)
        #expect(plan.mapping(forEntity: "Maker")?.kind == .add)
        let car = try #require(plan.mapping(forEntity: "Car"))
        #expect(car.removedAttributes == ["maker"])
        #expect(car.relationships.filter { $0.sourceName == nil }.map(\.name) == ["createdBy", "previousOwners"])
        #expect(plan.mapping(forEntity: "LuxuryCar")?.kind == .copy)
    }

    static let example = ["", "_2", "_3", "_4"].map { "CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example\($0)" }

    @Test func migrationExampleOneToFour() throws {
        let plans = try MigrationPlan.chain(try Self.example.map(Self.model))
        // 1 → 2: color became hexColor without a renaming identifier (the
        // project migrates it with a mapping model of its own), so a
        // lightweight migration drops one and adds the other.
        let post2 = try #require(plans[0].mapping(forEntity: "Post"))
        #expect(post2.removedAttributes == ["color"])
        #expect(post2.attributes.first { $0.name == "hexColor" }?.source == .defaultValue)
        // 2 → 3: a Color entity and a required to-one: every existing Post needs one.
        #expect(plans[1].mapping(forEntity: "Color")?.kind == .add)
        #expect(plans[1].checks == [.noEmptyRelationship(entity: "Post", relationship: "color")])
        #expect(plans[1].mapping(forEntity: "Post")?.removedAttributes == ["hexColor"])
        // 3 → 4: an optional Boolean with a default.
        let hide = try #require(plans[2].mapping(forEntity: "Post")?.attributes.first { $0.name == "hide" })
        #expect(hide.source == .defaultValue && hide.defaultValue == "NO" && hide.type == .boolean)
        #expect(plans[2].mapping(forEntity: "Color")?.isUnchanged == true)
        #expect(plans[2].checks.isEmpty)
    }

    static let revised = ["", "_2", "_3", "_4"].map { "CoreDataMigrationRevised-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example\($0)" }

    @Test func revisedExampleRenamesColorAndAddsARequiredDefault() throws {
        let plans = try MigrationPlan.chain(try Self.revised.map(Self.model))
        let hexColor = try #require(plans[0].mapping(forEntity: "Post")?.attributes.first { $0.name == "hexColor" })
        #expect(hexColor.source == .attribute("color") && hexColor.isRenamed)
        #expect(plans[0].mapping(forEntity: "Post")?.removedAttributes == [])
        #expect(plans[1].mapping(forEntity: "Section")?.kind == .add)
        let softDeleted = try #require(plans[2].mapping(forEntity: "Post")?.attributes.first { $0.name == "softDeleted" })
        #expect(softDeleted.source == .defaultValue && softDeleted.defaultValue == "NO")
        #expect(plans[2].checks.isEmpty)   // required, but with a default
        // The delete rule changed (cascade → nullify): not part of the schema.
        #expect(plans[2].mapping(forEntity: "Post")?.isUnchanged == false)
        #expect(plans[2].mapping(forEntity: "Section")?.isUnchanged == true)
    }

    @Test func changesNoLightweightMigrationCanMake() throws {
        let base = ObjectModel(entities: [
            EntityDescription(name: "Item", attributes: [AttributeDescription(name: "count", type: .integer16)],
                              relationships: [RelationshipDescription(name: "tag", destinationEntityName: "Tag")]),
            EntityDescription(name: "Tag"),
            EntityDescription(name: "Label"),
        ])
        func code(_ change: (inout ObjectModel) -> Void) -> ModelMigrationError.Code? {
            var changed = base
            change(&changed)
            do { _ = try MigrationPlan(from: base, to: changed); return nil } catch { return error.code }
        }
        #expect(code { $0.entities[0].attributes[0].type = .string } == .attributeTypeChanged)
        #expect(code { $0.entities[0].relationships[0].destinationEntityName = "Label" } == .relationshipDestinationChanged)
        #expect(code { $0.entities[0].superentityName = "Label" } == .inheritanceChanged)
        #expect(code {
            $0.entities[0].attributes.append(AttributeDescription(name: "total", type: .integer16, renamingIdentifier: "count"))
        } == .ambiguousRenaming)
        #expect(code { $0.entities[0].attributes[0].isOptional = false } == nil)
        var required = base
        required.entities[0].attributes[0].isOptional = false
        #expect(try MigrationPlan(from: base, to: required).checks == [.noNullValues(entity: "Item", attribute: "count")])
        required.entities[0].attributes[0].defaultValue = "0"
        let filled = try MigrationPlan(from: base, to: required)
        #expect(filled.checks.isEmpty && filled.mapping(forEntity: "Item")?.attributes[0].fillsNullsWithDefault == true)
        var toMany = base
        toMany.entities[0].relationships[0].isToMany = true
        toMany.entities[0].relationships[0].maxCount = 0
        #expect(try MigrationPlan(from: base, to: toMany).mapping(forEntity: "Item")?.relationships[0].cardinalityChanged == true)
    }
}
