import Foundation
import Store
import TestSupport

/// The fixtures' models written in Swift (until model files are loaded),
/// and where the fixtures are.
enum FixtureModels {
    static let root = BuiltExecutable.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/coredata")
    static let stores = root.appendingPathComponent("stores")

    static func store(_ name: String) -> String { stores.appendingPathComponent(name).path }

    /// CoreDataPlus's SampleModel: Car < SportCar < ExpensiveSportCar, Person 1-n Car.
    static let sampleModel = ObjectModel(entities: [
        EntityDescription(name: "Car", attributes: [
            AttributeDescription(name: "color", type: .transformable, valueTransformerName: "ColorTransformer"),
            AttributeDescription(name: "currentDrivingSpeed", type: .integer64, isTransient: true),
            AttributeDescription(name: "maker", type: .string),
            AttributeDescription(name: "markedForDeletionAsOf", type: .date),
            AttributeDescription(name: "model", type: .string),
            AttributeDescription(name: "numberPlate", type: .string, isOptional: false),
        ], relationships: [
            RelationshipDescription(name: "owner", destinationEntityName: "Person", inverseName: "cars"),
        ], uniquenessConstraints: [["numberPlate"]]),
        EntityDescription(name: "ExpensiveSportCar", superentityName: "SportCar", attributes: [
            AttributeDescription(name: "isLimitedEdition", type: .boolean),
        ]),
        EntityDescription(name: "Person", attributes: [
            AttributeDescription(name: "firstName", type: .string),
            AttributeDescription(name: "id", type: .uuid, isOptional: false),
            AttributeDescription(name: "isDriving", type: .boolean, isTransient: true),
            AttributeDescription(name: "lastName", type: .string),
            AttributeDescription(name: "updatedAt", type: .date, isOptional: false),
        ], relationships: [
            RelationshipDescription(name: "cars", destinationEntityName: "Car", inverseName: "owner", isToMany: true),
        ], uniquenessConstraints: [["firstName", "lastName"]]),
        EntityDescription(name: "SportCar", superentityName: "Car"),
    ])

    /// CoreDataStack's TestModel: Author n-n Book.
    static let authorsAndBooks = ObjectModel(entities: [
        EntityDescription(name: "Author", attributes: [
            AttributeDescription(name: "firstName", type: .string),
            AttributeDescription(name: "lastName", type: .string),
        ], relationships: [
            RelationshipDescription(name: "books", destinationEntityName: "Book", inverseName: "authors", isToMany: true),
        ]),
        EntityDescription(name: "Book", attributes: [
            AttributeDescription(name: "title", type: .string),
        ], relationships: [
            RelationshipDescription(name: "authors", destinationEntityName: "Author", inverseName: "books", isToMany: true),
        ]),
    ])

    /// CoreDataMigration-Example v3: Post 1-1 Color.
    static let postsAndColors = ObjectModel(entities: [
        EntityDescription(name: "Color", attributes: [
            AttributeDescription(name: "colorID", type: .string),
            AttributeDescription(name: "hex", type: .string),
        ], relationships: [
            RelationshipDescription(name: "post", destinationEntityName: "Post", inverseName: "color"),
        ]),
        EntityDescription(name: "Post", attributes: [
            AttributeDescription(name: "date", type: .date),
            AttributeDescription(name: "postID", type: .string),
        ], relationships: [
            RelationshipDescription(name: "color", destinationEntityName: "Color", inverseName: "post", isOptional: false),
        ]),
    ])

    /// CoreDataMigration-Example v4 (the WAL fixture): v3 and Post.hide.
    static var postsAndColorsV4: ObjectModel {
        var model = postsAndColors
        if let index = model.entities.firstIndex(where: { $0.name == "Post" }) {
            model.entities[index].attributes.append(AttributeDescription(name: "hide", type: .boolean))
        }
        return model
    }

    /// CoreDataMigrationRevised-Example v3: Post 1-n Section, cascade.
    static let postsAndSections = ObjectModel(entities: [
        EntityDescription(name: "Post", attributes: [
            AttributeDescription(name: "date", type: .date),
            AttributeDescription(name: "hexColor", type: .string),
            AttributeDescription(name: "postID", type: .string),
        ], relationships: [
            RelationshipDescription(name: "sections", destinationEntityName: "Section", inverseName: "post",
                                    isToMany: true, deleteRule: .cascade),
        ]),
        EntityDescription(name: "Section", attributes: [
            AttributeDescription(name: "body", type: .string),
            AttributeDescription(name: "index", type: .integer16),
            AttributeDescription(name: "title", type: .string),
        ], relationships: [
            RelationshipDescription(name: "post", destinationEntityName: "Post", inverseName: "sections"),
        ]),
    ])

    /// The fixtures these models describe, by file name.
    static let byStore: [(store: String, model: ObjectModel)] = [
        ("CoreDataPlus__SampleModel_V1.sqlite", sampleModel),
        ("CoreDataStack__TestModel.sqlite", authorsAndBooks),
        ("CoreDataMigration-Example__CoreDataMigration_Example_3.sqlite", postsAndColors),
        ("CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite", postsAndColorsV4),
        ("CoreDataMigrationRevised-Example__CoreDataMigration_Example_3.sqlite", postsAndSections),
    ]
}
