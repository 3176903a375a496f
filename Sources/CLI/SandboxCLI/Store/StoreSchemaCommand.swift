import ArgumentParser
import Store

/// `sandbox store schema <store>`: entities, properties and row counts.
struct StoreSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "List the store's entities, their attributes and relationships, and their row counts.",
        discussion: "Example: sandbox store schema Possessions.sqlite --json")

    @OptionGroup var target: StoreTarget

    func run() throws {
        try CommandRunner.run {
            let (store, metadata, origin) = try target.open()
            let schema = try store.schema(metadata: metadata, modelOrigin: origin)
            try target.output(json: schema, text: Self.text(schema))
        }
    }

    static func text(_ schema: StoreSchema) -> String {
        var lines = ["\(schema.path): \(schema.entities.count) entities (model from \(schema.modelOrigin == "modelCache" ? "the store's Z_MODELCACHE" : "--model")"
                     + (schema.versionIdentifiers.allSatisfy(\.isEmpty) ? "" : ", version \(schema.versionIdentifiers.filter { !$0.isEmpty }.joined(separator: ", "))")
                     + (schema.frameworkVersion.map { ", Core Data \($0)" } ?? "") + ")"]
        if schema.metadataMatchesModel == false {
            lines.append("warning: the store's metadata hashes are not the model's; the store was written with another model version")
        }
        for entity in schema.entities {
            let parent = entity.superentity.map { " : \($0)" } ?? ""
            lines.append("")
            lines.append("\(entity.name)\(parent)\(entity.isAbstract ? " (abstract)" : "")  table \(entity.table), Z_ENT \(entity.entityNumber), \(entity.rows) rows")
            for attribute in entity.attributes {
                let column = attribute.column.map { " \($0)" } ?? (attribute.isTransient ? " (transient)" : "")
                lines.append("  \(attribute.name): \(attribute.type)\(attribute.isOptional ? "?" : "")\(column)")
            }
            for relationship in entity.relationships {
                let arrow = relationship.isToMany ? (relationship.isOrdered ? "->> (ordered)" : "->>") : "->"
                let inverse = relationship.inverse.map { ", inverse \($0)" } ?? ""
                lines.append("  \(relationship.name) \(arrow) \(relationship.destination) (\(relationship.deleteRule)\(inverse))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
