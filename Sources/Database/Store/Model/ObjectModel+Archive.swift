import Foundation
import KeyedArchive
import PropertyList

extension ObjectModel {
    /// Reads a model from a keyed archive of `NSManagedObjectModel`: a
    /// compiled `.mom` file's bytes, or the inflated `Z_MODELCACHE` content.
    public init(archivedData data: Data, path: String? = nil) throws(ModelError) {
        let unarchiver: KeyedUnarchiver
        let root: ArchivedValue
        do {
            unarchiver = try KeyedUnarchiver(data: data)
            root = try unarchiver.decodeRootGraph()
        } catch {
            throw ModelError(.malformedArchive, "unreadable keyed archive", path: path).caused(by: error)
        }
        // The archive's objects refer to each other (entity ↔ property ↔
        // model); empty them once read so the cycles are freed.
        defer { unarchiver.discardGraph() }
        guard let model = root.object, model.archiveClass?.isKind(of: "NSManagedObjectModel") == true else {
            throw ModelError(.invalidArchivedModel, "the root object is \(root.object?.className ?? "not an object"), not NSManagedObjectModel", path: path)
        }
        var reader = ArchivedModelReader(path: path)
        self = try reader.model(from: model)
        try validateReferences(path: path)
    }

    /// Reads a compiled model file (`.mom`, inside an `.momd` bundle).
    public init(compiledModelFile path: String) throws(ModelError) {
        try self.init(archivedData: ModelFiles.read(path), path: path)
    }

    /// Reads the model a store caches: the raw-deflated keyed archive in
    /// `Z_MODELCACHE.Z_CONTENT`. Inflating stops at `inflatedLimit` bytes.
    public init(modelCache compressed: Data, inflatedLimit: Int = RawDeflate.defaultInflatedLimit) throws(ModelError) {
        let archive = try RawDeflate.inflate(compressed, limit: inflatedLimit)
        try self.init(archivedData: archive, path: nil)
    }
}

/// Turns the generic object graph of an archived `NSManagedObjectModel`
/// into value types.
struct ArchivedModelReader {
    let path: String?

    private func fail(_ message: String, _ object: ArchivedObject?) -> ModelError {
        ModelError(.invalidArchivedModel, message, path: path,
                   element: object.map { "$objects[\($0.archiveIndex.map(String.init) ?? "?")] \($0.className ?? "inline")" })
    }

    mutating func model(from model: ArchivedObject) throws(ModelError) -> ObjectModel {
        let entityObjects = try dictionary(model["NSEntities"], owner: model, key: "NSEntities").map(\.value)
        var entities: [EntityDescription] = []
        for value in entityObjects {
            guard let object = value.object, object.archiveClass?.isKind(of: "NSEntityDescription") == true else {
                throw fail("NSEntities holds \(value.object?.className ?? "a non-object"), not an entity", model)
            }
            entities.append(try entity(from: object))
        }
        var identifiers: [String] = []
        if let set = model["NSVersionIdentifiers"], set != .null {
            guard let elements = set.elements else { throw fail("NSVersionIdentifiers is not a set", model) }
            identifiers = elements.compactMap(\.stringValue)
        }
        return ObjectModel(entities: entities, versionIdentifiers: identifiers)
    }

    private func entity(from object: ArchivedObject) throws(ModelError) -> EntityDescription {
        guard let name = object["NSEntityName"]?.stringValue, !name.isEmpty else { throw fail("an entity without NSEntityName", object) }
        var superName: String?
        var inherited: Set<String> = []
        if let superValue = object["NSSuperentity"], superValue != .null {
            guard let superObject = superValue.object, superObject.archiveClass?.isKind(of: "NSEntityDescription") == true,
                  let parentName = superObject["NSEntityName"]?.stringValue else {
                throw fail("NSSuperentity of \(name) is not an entity", object)
            }
            superName = parentName
            // A sub-entity's archived properties include copies of its
            // super-entity's; the value keeps only its own.
            inherited = Set(try dictionary(superObject["NSProperties"], owner: superObject, key: "NSProperties").compactMap { $0.key })
        }
        var entity = EntityDescription(
            name: name, superentityName: superName, isAbstract: object["NSIsAbstract"]?.boolValue ?? false,
            renamingIdentifier: renaming(object["NSRenamingIdentifier"], name: name),
            versionHashModifier: nonEmptyString(object["NSVersionHashModifier"]),
            uniquenessConstraints: try constraints(object["NSUniqueTuples"], owner: object),
            // Core Data's default class stands for "no class of the app's own".
            className: object["NSClassNameForEntity"]?.stringValue.flatMap { $0 == "NSManagedObject" ? nil : $0 },
            userInfo: userInfo(object["NSUserInfo"]),
            fetchIndexes: try fetchIndexes(object["NSFetchIndexDescriptions"], owner: object))
        for (key, value) in try dictionary(object["NSProperties"], owner: object, key: "NSProperties") {
            guard let property = value.object, let archiveClass = property.archiveClass else {
                throw fail("a property of \(name) is not an object", object)
            }
            let propertyName = property["NSPropertyName"]?.stringValue ?? key
            guard let propertyName, !propertyName.isEmpty else { throw fail("a property of \(name) has no name", property) }
            if inherited.contains(propertyName) { continue }
            if archiveClass.isKind(of: "NSRelationshipDescription") {
                entity.relationships.append(try relationship(from: property, name: propertyName))
            } else if archiveClass.isKind(of: "NSAttributeDescription") {
                entity.attributes.append(try attribute(from: property, name: propertyName))
            } else if archiveClass.isKind(of: "NSFetchedPropertyDescription") {
                entity.fetchedProperties.append(FetchedPropertyDescription(
                    name: propertyName, destinationEntityName: property["_NSFetchRequestEntityName"]?.stringValue))
            } else {
                throw fail("property \(name).\(propertyName) has unknown class \(archiveClass.name)", property)
            }
        }
        return entity
    }

    /// The flags a property stores in `_P` (or, in older archives, as separate Booleans).
    private struct PropertyFlags {
        var isOptional, isReadOnly, isTransient, isOrdered: Bool
        init(_ object: ArchivedObject) {
            if let packed = object["_P"]?.intValue, packed != 0 {
                isOptional = packed & 0x2 != 0
                isReadOnly = packed & 0x4 != 0
                isTransient = packed & 0x8 != 0
                isOrdered = packed & 0x400 != 0
            } else {
                isOptional = object["NSIsOptional"]?.boolValue ?? false
                isReadOnly = object["NSIsReadOnly"]?.boolValue ?? false
                isTransient = object["NSIsTransient"]?.boolValue ?? false
                isOrdered = object["NSIsOrdered"]?.boolValue ?? false
            }
        }
    }

    private func attribute(from object: ArchivedObject, name: String) throws(ModelError) -> AttributeDescription {
        let rawType = object["NSAttributeType"]?.intValue ?? 0
        guard let type = AttributeType(rawValue: rawType) else { throw fail("attribute \(name) has unknown type \(rawType)", object) }
        let flags = PropertyFlags(object)
        let attributeFlags = object["NSFlagsKey"]?.intValue ?? 0
        var derivation: String?
        if object.archiveClass?.isKind(of: "NSDerivedAttributeDescription") == true {
            derivation = ExpressionText.render(object["NSDerivationExpression"], depth: 0)
        }
        return AttributeDescription(
            name: name, type: type, isOptional: flags.isOptional, isTransient: flags.isTransient,
            defaultValue: defaultValueText(object["NSDefaultValue"], type: type),
            valueTransformerName: nonEmptyString(object["NSValueTransformerName"]),
            renamingIdentifier: renaming(object["NSRenamingIdentifier"], name: name),
            versionHashModifier: nonEmptyString(object["NSVersionHashModifier"]),
            isReadOnly: flags.isReadOnly,
            allowsExternalBinaryDataStorage: attributeFlags & 0x4 != 0,
            preservesValueInHistoryOnDeletion: attributeFlags & 0x10 != 0,
            derivationExpression: derivation,
            valueClassName: object["NSAttributeValueClassName"]?.stringValue)
    }

    private func relationship(from object: ArchivedObject, name: String) throws(ModelError) -> RelationshipDescription {
        let destination = object["_NSDestinationEntityName"]?.stringValue
            ?? object["NSDestinationEntity"]?["NSEntityName"]?.stringValue
        guard let destination else { throw fail("relationship \(name) has no destination entity", object) }
        let inverse = object["_NSInverseRelationshipName"]?.stringValue
            ?? object["NSInverseRelationship"]?["NSPropertyName"]?.stringValue
        let flags = PropertyFlags(object)
        // A model built in code archives an unbounded to-many as −1
        // (NSUIntegerMax); kept as is, since the version hash depends on it.
        let maxCount = object["NSMaxCount"]?.intValue ?? 0
        let minCount = object["NSMinCount"]?.intValue ?? 0
        guard (-1...Int(Int32.max)).contains(maxCount), (0...Int(Int32.max)).contains(minCount) else {
            throw fail("relationship \(name) has counts \(minCount)…\(maxCount)", object)
        }
        let ruleValue = object["NSDeleteRule"]?.intValue ?? DeleteRule.nullify.rawValue
        guard let rule = DeleteRule(rawValue: ruleValue) else { throw fail("relationship \(name) has delete rule \(ruleValue)", object) }
        return RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: maxCount != 1,
            isOrdered: flags.isOrdered, isOptional: flags.isOptional, isTransient: flags.isTransient, deleteRule: rule,
            minCount: minCount, maxCount: maxCount,
            renamingIdentifier: renaming(object["NSRenamingIdentifier"], name: name),
            versionHashModifier: nonEmptyString(object["NSVersionHashModifier"]))
    }

    /// The entries of an archived dictionary: an `NSDictionary` or Core
    /// Data's own `NSKnownKeysDictionary1` (values, plus keys in a mapping
    /// object). A missing or null field is empty.
    private func dictionary(_ value: ArchivedValue?, owner: ArchivedObject, key: String) throws(ModelError) -> [(key: String?, value: ArchivedValue)] {
        guard let value, value != .null else { return [] }
        // Checked first: it is an NSDictionary subclass, but without NS.keys.
        if let object = value.object, object.archiveClass?.isKind(of: "NSKnownKeysDictionary1") == true {
            guard let values = object["values"]?.elements else { throw fail("\(key) has no values array", object) }
            let keys = object["searchMapping"]?["keys"]?.elements ?? []
            return values.enumerated().map { index, element in
                (key: index < keys.count ? keys[index].stringValue : nil, value: element)
            }
        }
        if case .dictionary(let entries)? = value.foundationValue {
            return entries.map { (key: $0.key.stringValue, value: $0.value) }
        }
        throw fail("\(key) is \(value.object?.className ?? "not an object"), not a dictionary", owner)
    }

    private func constraints(_ value: ArchivedValue?, owner: ArchivedObject) throws(ModelError) -> [[String]] {
        guard let value, value != .null else { return [] }
        guard let tuples = value.elements else { throw fail("NSUniqueTuples is not an array", owner) }
        return tuples.compactMap { tuple in
            let names = (tuple.elements ?? []).compactMap(\.stringValue)
            return names.isEmpty ? nil : names
        }
    }

    private func fetchIndexes(_ value: ArchivedValue?, owner: ArchivedObject) throws(ModelError) -> [FetchIndexDescription] {
        guard let value, value != .null else { return [] }
        guard let indexes = value.elements else { throw fail("NSFetchIndexDescriptions is not an array", owner) }
        var result: [FetchIndexDescription] = []
        for index in indexes {
            guard let object = index.object, let name = object["NSIndexName"]?.stringValue else {
                throw fail("a fetch index without NSIndexName", owner)
            }
            var elements: [FetchIndexDescription.Element] = []
            for element in object["NSIndexElements"]?.elements ?? [] {
                guard let property = element["NSPropertyName"]?.stringValue else { throw fail("fetch index \(name) has an element without a property", object) }
                let kind = FetchIndexDescription.Element.Kind(rawValue: element["NSFetchIndexElementType"]?.intValue ?? 0) ?? .binary
                elements.append(FetchIndexDescription.Element(propertyName: property, kind: kind,
                                                              isAscending: element["NSAscending"]?.boolValue ?? true))
            }
            result.append(FetchIndexDescription(name: name, elements: elements))
        }
        return result
    }

    private func userInfo(_ value: ArchivedValue?) -> [String: String] {
        guard case .dictionary(let entries)? = value?.foundationValue else { return [:] }
        var result: [String: String] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue else { continue }
            result[key] = entry.value.stringValue ?? entry.value.numberValue.map { "\($0)" } ?? ""
        }
        return result
    }

    /// Core Data archives the name as the renaming identifier when none was set.
    private func renaming(_ value: ArchivedValue?, name: String) -> String? {
        guard let identifier = nonEmptyString(value), identifier != name else { return nil }
        return identifier
    }

    private func nonEmptyString(_ value: ArchivedValue?) -> String? {
        guard let text = value?.stringValue, !text.isEmpty else { return nil }
        return text
    }

    /// The default value as the model editor spells it (`defaultValueString`).
    private func defaultValueText(_ value: ArchivedValue?, type: AttributeType) -> String? {
        guard let value, value != .null else { return nil }
        if let text = value.stringValue { return text }
        if let date = value.dateValue { return String(date.timeIntervalSinceReferenceDate) }
        guard let number = value.numberValue else { return nil }
        switch number {
        case .bool(let flag): return flag ? "YES" : "NO"
        case .integer(let integer):
            if type == .boolean { return integer.int64Value == 0 ? "NO" : "YES" }
            return integer.int64Value.map(String.init) ?? "\(integer)"
        case .real(let real): return real == real.rounded() && abs(real) < 1e15 ? String(Int64(real)) : String(real)
        case .float(let real): return real == real.rounded() && abs(real) < 1e15 ? String(Int64(real)) : String(real)
        default: return nil
        }
    }
}

/// A readable text for an archived `NSExpression` (a derived attribute's
/// derivation), enough to show and compare it; not a full printer.
enum ExpressionText {
    static func render(_ value: ArchivedValue?, depth: Int) -> String {
        guard depth < 32, let object = value?.object else { return "" }
        if let text = object.foundationValue?.stringValue { return text }
        let name = object.className ?? ""
        switch name {
        case "NSKeyPathSpecifierExpression":
            return object["NSKeyPath"]?.stringValue ?? ""
        case "NSKeyPathExpression", "NSFunctionExpression":
            let selector = object["NSSelectorName"]?.stringValue ?? ""
            let arguments = (object["NSArguments"]?.elements ?? []).map { render($0, depth: depth + 1) }
            let operandObject = object["NSOperand"]?.object
            let operand = render(object["NSOperand"], depth: depth + 1)
            if selector == "valueForKeyPath:" || selector == "valueForKey:", arguments.count == 1 {
                return operand.isEmpty || operand == "SELF" ? arguments[0] : "\(operand).\(arguments[0])"
            }
            // A function of Foundation's predicate utilities prints as
            // `count:(pages)`, as NSExpression.predicateFormat does.
            if operandObject?["NSConstantValueClassName"]?.stringValue == "_NSPredicateUtilities" || operand.isEmpty {
                return "\(selector)(\(arguments.joined(separator: ", ")))"
            }
            return "FUNCTION(\(operand), \"\(selector)\"\(arguments.map { ", " + $0 }.joined()))"
        case "NSSelfExpression": return "SELF"
        case "NSVariableExpression": return "$" + (object["NSVariable"]?.stringValue ?? "")
        case "NSConstantValueExpression":
            let constant = object["NSConstantValue"]
            return constant?.stringValue ?? constant?.numberValue.map { "\($0)" } ?? "nil"
        default:
            return name
        }
    }
}
