import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList

extension ObjectModel {
    /// The model as a keyed archive of `NSManagedObjectModel`, with the
    /// classes and keys Core Data writes (what a `.mom` file and the
    /// inflated `Z_MODELCACHE` content hold).
    ///
    /// Like Core Data, each entity lists its inherited properties too (as
    /// copies that name the sub-entity), and an attribute's default value
    /// is archived as the object its type calls for. A decimal default is
    /// archived as its text.
    public func archivedData() throws(ModelError) -> Data {
        let root = ArchivedModelWriter(model: self).modelObject()
        do {
            // Relationships name their destination (`_NSDestinationEntityName`,
            // which Core Data resolves in the model) instead of referring to
            // its object, so nesting grows with inheritance depth only, not
            // with chains of related entities.
            let archiver = KeyedArchiver()
            try archiver.encode(root, forKey: KeyedArchiveFormat.rootKey)
            let data = try archiver.encodedData(format: .binary)
            ArchivedModelWriter.breakCycles(root)
            return data
        } catch {
            ArchivedModelWriter.breakCycles(root)
            throw ModelError(.malformedArchive, "cannot archive the model").caused(by: error)
        }
    }

    /// The content of `Z_MODELCACHE.Z_CONTENT` for this model: its keyed
    /// archive, raw-deflated.
    public func modelCacheData() throws(ModelError) -> Data {
        try RawDeflate.deflate(archivedData())
    }
}

/// Builds the generic object graph Core Data archives for a model.
private struct ArchivedModelWriter {
    let model: ObjectModel
    let modelObject_: ArchivedObject
    var entityObjects: [String: ArchivedObject] = [:]

    init(model: ObjectModel) {
        self.model = model
        modelObject_ = ArchivedObject(className: "NSManagedObjectModel")
        for entity in model.entities {
            entityObjects[entity.name] = ArchivedObject(className: "NSEntityDescription")
        }
    }

    static let dictionaryClass = KeyedArchiveClass("NSMutableDictionary", superclasses: ["NSDictionary", "NSObject"])

    static func dictionary(_ entries: [(String, ArchivedValue)]) -> ArchivedValue {
        .object(ArchivedObject(class: dictionaryClass, fields: [
            "NS.keys": .array(entries.map { .string($0.0) }),
            "NS.objects": .array(entries.map(\.1)),
        ]))
    }

    static func array(_ elements: [ArchivedValue]) -> ArchivedValue {
        .object(ArchivedObject(className: "NSArray", fields: ["NS.objects": .array(elements)]))
    }

    static func set(_ elements: [ArchivedValue]) -> ArchivedValue {
        .object(ArchivedObject(className: "NSSet", fields: ["NS.objects": .array(elements)]))
    }

    static func optionalString(_ text: String?) -> ArchivedValue { text.map { .string($0) } ?? .null }

    /// Empties every object reachable from `root`, so the entity ↔ property
    /// ↔ model cycles do not keep the graph alive.
    static func breakCycles(_ root: ArchivedObject) {
        var pending: [ArchivedValue] = [.object(root)]
        var seen: Set<ObjectIdentifier> = []
        while let value = pending.popLast() {
            switch value {
            case .object(let object):
                guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
                pending.append(contentsOf: object.fields.values)
                object.fields = [:]
            case .array(let elements): pending.append(contentsOf: elements)
            case .dictionary(let entries): pending.append(contentsOf: entries.values)
            case .null, .scalar: break
            }
        }
    }

    func modelObject() -> ArchivedObject {
        for entity in model.entities { fill(entity) }
        modelObject_.fields = [
            "NSEntities": Self.dictionary(model.entities.compactMap { entity in entityObjects[entity.name].map { (entity.name, .object($0)) } }),
            "NSVersionIdentifiers": Self.set(model.versionIdentifiers.map { .string($0) }),
            "NSFetchRequestTemplates": .null,
        ]
        return modelObject_
    }

    private func fill(_ entity: EntityDescription) {
        guard let object = entityObjects[entity.name] else { return }
        var properties: [(String, ArchivedValue)] = []
        for (_, attribute) in model.resolvedAttributes(of: entity) {
            properties.append((attribute.name, .object(attributeObject(attribute, in: object))))
        }
        for (_, relationship) in model.resolvedRelationships(of: entity) {
            properties.append((relationship.name, .object(relationshipObject(relationship, in: object))))
        }
        for fetched in entity.fetchedProperties {
            properties.append((fetched.name, .object(ArchivedObject(className: "NSFetchedPropertyDescription", superclasses: ["NSPropertyDescription", "NSObject"], fields: [
                "_P": .integer(0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80),
                "NSIsOptional": .bool(true), "NSIsReadOnly": .bool(true), "NSIsTransient": .bool(true),
                "NSPropertyName": .string(fetched.name), "NSEntity": .object(object),
                "_NSFetchRequestEntityName": Self.optionalString(fetched.destinationEntityName),
            ]))))
        }
        var fields: OrderedDictionary<String, ArchivedValue> = [
            "NSEntityName": .string(entity.name),
            "NSClassNameForEntity": .string(entity.className ?? "NSManagedObject"),
            "NSSuperentity": entity.superentityName.flatMap { entityObjects[$0] }.map { .object($0) } ?? .null,
            "NSSubentities": Self.dictionary(model.subentities(of: entity).compactMap { sub in entityObjects[sub.name].map { (sub.name, .object($0)) } }),
            "NSProperties": Self.dictionary(properties),
            "NSUserInfo": Self.dictionary(entity.userInfo.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }),
            "NSVersionHashModifier": Self.optionalString(entity.versionHashModifier),
            "NSRenamingIdentifier": .string(entity.renamingIdentifier ?? entity.name),
            "NSManagedObjectModel": .object(modelObject_),
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        if !entity.uniquenessConstraints.isEmpty {
            fields["NSUniqueTuples"] = Self.array(entity.uniquenessConstraints.map { Self.array($0.map { .string($0) }) })
        }
        if !entity.fetchIndexes.isEmpty {
            fields["NSFetchIndexDescriptions"] = Self.array(entity.fetchIndexes.map { index in
                let indexObject = ArchivedObject(className: "NSFetchIndexDescription")
                indexObject.fields = [
                    "NSIndexName": .string(index.name),
                    "NSEntity": .object(object),
                    "NSPartialIndexPredicate": .null,
                    "NSIndexElements": Self.array(index.elements.map { element in
                        .object(ArchivedObject(className: "NSFetchIndexElementDescription", fields: [
                            "NSPropertyName": .string(element.propertyName),
                            "NSFetchIndexElementType": .integer(element.kind.rawValue),
                            "NSAscending": .bool(element.isAscending),
                            "NSFetchIndexDescription": .object(indexObject),
                        ]))
                    }),
                ]
                return .object(indexObject)
            })
        }
        object.fields = fields
    }

    /// `_P` as `NSPropertyDescription.encodeWithCoder:` packs it: bit 0
    /// always, optional 0x2, read-only 0x4, transient 0x8, ordered 0x400,
    /// and 0x10–0x80 for "no validation predicates, warnings, user info,
    /// version-hash modifier".
    private static func packedFlags(isOptional: Bool, isReadOnly: Bool, isTransient: Bool, isOrdered: Bool, hasModifier: Bool) -> Int {
        var flags = 0x1 | 0x10 | 0x20 | 0x40
        if isOptional { flags |= 0x2 }
        if isReadOnly { flags |= 0x4 }
        if isTransient { flags |= 0x8 }
        if !hasModifier { flags |= 0x80 }
        if isOrdered { flags |= 0x400 }
        return flags
    }

    private func attributeObject(_ attribute: AttributeDescription, in entity: ArchivedObject) -> ArchivedObject {
        let className = attribute.isDerived ? "NSDerivedAttributeDescription" : "NSAttributeDescription"
        let superclasses = attribute.isDerived ? ["NSAttributeDescription", "NSPropertyDescription", "NSObject"] : ["NSPropertyDescription", "NSObject"]
        var fields: OrderedDictionary<String, ArchivedValue> = [
            "_P": .integer(Self.packedFlags(isOptional: attribute.isOptional, isReadOnly: attribute.isReadOnly, isTransient: attribute.isTransient,
                                            isOrdered: false, hasModifier: attribute.versionHashModifier != nil)),
            "NSPropertyName": .string(attribute.name),
            "NSEntity": .object(entity),
            "NSRenamingIdentifier": .string(attribute.renamingIdentifier ?? attribute.name),
            "NSAttributeType": .integer(attribute.type.rawValue),
            "NSAttributeValueClassName": Self.optionalString(attribute.valueClassName),
            "NSDefaultValue": Self.defaultValue(attribute),
            "NSValueTransformerName": Self.optionalString(attribute.valueTransformerName),
            "NSFlagsKey": .integer((attribute.allowsExternalBinaryDataStorage ? 0x4 : 0) | (attribute.preservesValueInHistoryOnDeletion ? 0x10 : 0)),
        ]
        if attribute.isOptional { fields["NSIsOptional"] = .bool(true) }
        if attribute.isTransient { fields["NSIsTransient"] = .bool(true) }
        if let modifier = attribute.versionHashModifier { fields["NSVersionHashModifier"] = .string(modifier) }
        if let expression = attribute.derivationExpression {
            fields["NSDerivationExpression"] = .object(Self.expressionObject(expression))
        }
        return ArchivedObject(className: className, superclasses: superclasses, fields: fields)
    }

    /// A derivation as an expression object: a key path, or a function of
    /// one key path (`count:(pages)`), the two forms Core Data's model
    /// editor produces.
    private static func expressionObject(_ format: String) -> ArchivedObject {
        func keyPath(_ path: String) -> ArchivedObject {
            ArchivedObject(className: "NSKeyPathExpression", superclasses: ["NSFunctionExpression", "NSExpression", "NSObject"], fields: [
                "NSExpressionType": .integer(3),
                "NSOperand": .object(ArchivedObject(className: "NSSelfExpression", superclasses: ["NSExpression", "NSObject"], fields: ["NSExpressionType": .integer(1)])),
                "NSSelectorName": .string("valueForKey:"),
                "NSArguments": array([.object(ArchivedObject(className: "NSKeyPathSpecifierExpression", superclasses: ["NSExpression", "NSObject"],
                                                             fields: ["NSExpressionType": .integer(10), "NSKeyPath": .string(path)]))]),
            ])
        }
        if let open = format.firstIndex(of: "("), format.hasSuffix(")"), format[..<open].hasSuffix(":") {
            let selector = String(format[..<open])
            let argument = String(format[format.index(after: open)..<format.index(before: format.endIndex)])
            return ArchivedObject(className: "NSFunctionExpression", superclasses: ["NSExpression", "NSObject"], fields: [
                "NSExpressionType": .integer(4),
                "NSOperand": .object(ArchivedObject(className: "NSConstantValueExpression", superclasses: ["NSExpression", "NSObject"], fields: [
                    "NSExpressionType": .integer(0), "NSConstantValueClassName": .string("_NSPredicateUtilities"),
                ])),
                "NSSelectorName": .string(selector),
                "NSArguments": array([.object(keyPath(argument))]),
            ])
        }
        return keyPath(format)
    }

    private static func defaultValue(_ attribute: AttributeDescription) -> ArchivedValue {
        guard let text = attribute.defaultValue else { return .null }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            return Int64(text).map { .number(.integer(PropertyListInteger($0))) } ?? .string(text)
        case .double, .float:
            return Double(text).map { .number(.real($0)) } ?? .string(text)
        case .boolean:
            return .number(.bool(text == "YES" || text == "1" || text.lowercased() == "true"))
        case .date:
            guard let seconds = Double(text) else { return .string(text) }
            return .object(ArchivedObject(className: "NSDate", fields: ["NS.time": .double(seconds)]))
        default:
            return .string(text)
        }
    }

    private func relationshipObject(_ relationship: RelationshipDescription, in entity: ArchivedObject) -> ArchivedObject {
        var fields: OrderedDictionary<String, ArchivedValue> = [
            "_P": .integer(Self.packedFlags(isOptional: relationship.isOptional, isReadOnly: false, isTransient: relationship.isTransient,
                                            isOrdered: relationship.isOrdered, hasModifier: relationship.versionHashModifier != nil)),
            "NSPropertyName": .string(relationship.name),
            "NSEntity": .object(entity),
            "NSRenamingIdentifier": .string(relationship.renamingIdentifier ?? relationship.name),
            "_NSDestinationEntityName": .string(relationship.destinationEntityName),
            "_NSInverseRelationshipName": Self.optionalString(relationship.inverseName),
            "NSMinCount": .integer(relationship.minCount),
            "NSMaxCount": .integer(relationship.maxCount),
            "NSDeleteRule": .integer(relationship.deleteRule.rawValue),
        ]
        if relationship.isOptional { fields["NSIsOptional"] = .bool(true) }
        if relationship.isTransient { fields["NSIsTransient"] = .bool(true) }
        if relationship.isOrdered { fields["NSIsOrdered"] = .bool(true) }
        if let modifier = relationship.versionHashModifier { fields["NSVersionHashModifier"] = .string(modifier) }
        return ArchivedObject(className: "NSRelationshipDescription", superclasses: ["NSPropertyDescription", "NSObject"], fields: fields)
    }
}
