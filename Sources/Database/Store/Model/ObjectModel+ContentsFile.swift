import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension ObjectModel {
    /// Reads an `.xcdatamodel` bundle's `contents` file: the XML the model
    /// editor writes (`<model><entity><attribute/>…</entity></model>`).
    ///
    /// ```swift
    /// let model = try ObjectModel(contentsFile: "Model.xcdatamodeld/v2.xcdatamodel/contents")
    /// ```
    public init(contentsFile path: String) throws(ModelError) {
        let data = try ModelFiles.read(path)
        try self.init(contentsData: data, path: path)
    }

    /// Reads the XML of a `contents` file; `path` only names the input in errors.
    public init(contentsData data: Data, path: String? = nil) throws(ModelError) {
        let reader = ContentsFileReader(path: path)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let error = reader.error { throw error }
        guard parsed else {
            let message = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"
            throw ModelError(.malformedXML, message, path: path, line: parser.lineNumber)
        }
        if let unclosed = reader.openElements.last {
            throw ModelError(.malformedXML, "the file ends inside <\(unclosed)>", path: path, line: parser.lineNumber)
        }
        guard reader.sawModel else {
            throw ModelError(.invalidElement, "no <model> element: not a Core Data model file", path: path, line: parser.lineNumber)
        }
        self.init(entities: reader.entities, versionIdentifiers: reader.versionIdentifiers)
        try validateReferences(path: path)
    }

    /// Checks that entity and property names are unique, that every
    /// super-entity, destination and inverse named exists, and that
    /// inheritance has no cycle.
    func validateReferences(path: String?) throws(ModelError) {
        var names = Set<String>()
        for entity in entities where !names.insert(entity.name).inserted {
            throw ModelError(.invalidElement, "entity \(entity.name) is defined twice", path: path, element: "entity \(entity.name)")
        }
        for entity in entities {
            var propertyNames = Set<String>()
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
            where !propertyNames.insert(name).inserted {
                throw ModelError(.invalidElement, "property \(name) is defined twice", path: path, element: "entity \(entity.name)")
            }
            for relationship in entity.relationships {
                guard let inverse = relationship.inverseName, let destination = self.entity(named: relationship.destinationEntityName) else { continue }
                let candidates = ancestors(of: destination) + [destination] + descendants(of: destination)
                guard candidates.contains(where: { $0.relationships.contains { $0.name == inverse } }) else {
                    throw ModelError(.unresolvedReference, "inverse \(inverse) is not a relationship of \(destination.name)",
                                     path: path, element: "relationship \(entity.name).\(relationship.name)")
                }
            }
        }
        for entity in entities {
            if let parent = entity.superentityName, !names.contains(parent) {
                throw ModelError(.unresolvedReference, "parent entity \(parent) is not defined", path: path, element: "entity \(entity.name)")
            }
            for relationship in entity.relationships where !names.contains(relationship.destinationEntityName) {
                throw ModelError(.unresolvedReference, "destination entity \(relationship.destinationEntityName) is not defined",
                                 path: path, element: "relationship \(entity.name).\(relationship.name)")
            }
            var seen: Set<String> = [entity.name]
            var current = entity.superentityName
            while let parent = current {
                guard seen.insert(parent).inserted else {
                    throw ModelError(.unresolvedReference, "inheritance cycle through \(parent)", path: path, element: "entity \(entity.name)")
                }
                current = self.entity(named: parent)?.superentityName
            }
        }
    }
}

/// Collects a `contents` file's entities as the parser reports elements.
private final class ContentsFileReader: NSObject, XMLParserDelegate {
    let path: String?
    var entities: [EntityDescription] = []
    var versionIdentifiers: [String] = []
    var sawModel = false
    var error: ModelError?
    private var current: EntityDescription?
    private var constraint: [String]?
    /// The fetched property whose `<fetchRequest>` is being read.
    private var fetchedProperty: FetchedPropertyDescription?
    /// The element whose `<userInfo>` entries are being read (only an entity's are kept).
    private var userInfoOwnerIsEntity = false
    private(set) var openElements: [String] = []

    init(path: String?) { self.path = path }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let parent = openElements.last
        openElements.append(name)
        do throws(ModelError) {
            try start(name, parent: parent, attributes, parser: parser)
        } catch {
            self.error = error
            parser.abortParsing()
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        openElements.removeLast()
        switch name {
        case "entity":
            if let current { entities.append(current) }
            current = nil
        case "uniquenessConstraint":
            if let constraint, !constraint.isEmpty { current?.uniquenessConstraints.append(constraint) }
            constraint = nil
        case "fetchedProperty":
            if let fetchedProperty { current?.fetchedProperties.append(fetchedProperty) }
            fetchedProperty = nil
        case "userInfo":
            userInfoOwnerIsEntity = false
        default: break
        }
    }

    private func start(_ name: String, parent: String?, _ attributes: [String: String], parser: XMLParser) throws(ModelError) {
        func fail(_ message: String, _ element: String) -> ModelError {
            ModelError(.invalidElement, message, path: path, line: parser.lineNumber, element: element)
        }
        func required(_ key: String, of element: String) throws(ModelError) -> String {
            guard let value = attributes[key], !value.isEmpty else { throw fail("missing \(key)=", element) }
            return value
        }
        func flag(_ key: String) -> Bool { attributes[key] == "YES" }

        switch name {
        case "model":
            sawModel = true
            if let identifier = attributes["userDefinedModelVersionIdentifier"] { versionIdentifiers = [identifier] }
        case "entity" where parent == "model":
            let entityName = try required("name", of: "entity")
            guard current == nil else { throw fail("entity inside an entity", "entity \(entityName)") }
            current = EntityDescription(
                name: entityName, superentityName: attributes["parentEntity"], isAbstract: flag("isAbstract"),
                renamingIdentifier: attributes["elementID"], versionHashModifier: attributes["versionHashModifier"],
                className: attributes["representedClassName"])
        case "attribute" where parent == "entity":
            let attributeName = try required("name", of: "attribute")
            let element = "attribute \(current?.name ?? "?").\(attributeName)"
            let typeName = try required("attributeType", of: element)
            guard let type = AttributeType(modelFileName: typeName) else { throw fail("unknown attributeType \"\(typeName)\"", element) }
            var defaultValue = attributes["defaultValueString"]
            if defaultValue == nil, let interval = attributes["defaultDateTimeInterval"] { defaultValue = interval }
            let derived = flag("derived")
            current?.attributes.append(AttributeDescription(
                name: attributeName, type: type, isOptional: flag("optional"), isTransient: flag("transient"),
                defaultValue: defaultValue, valueTransformerName: attributes["valueTransformerName"],
                renamingIdentifier: attributes["elementID"], versionHashModifier: attributes["versionHashModifier"],
                isReadOnly: derived,
                allowsExternalBinaryDataStorage: flag("allowsExternalBinaryDataStorage"),
                preservesValueInHistoryOnDeletion: flag("preserveAfterDeletion"),
                derivationExpression: derived ? DerivationFormat.predicateFormat(of: attributes["derivationExpression"] ?? "") : nil,
                valueClassName: attributes["customClassName"]))
        case "relationship" where parent == "entity":
            let relationshipName = try required("name", of: "relationship")
            let element = "relationship \(current?.name ?? "?").\(relationshipName)"
            let destination = try required("destinationEntity", of: element)
            let toMany = flag("toMany")
            // Xcode writes maxCount="1" for a to-one; a to-many without a bound has none.
            let maxCount = try count("maxCount", attributes, default: toMany ? 0 : 1, fail: fail, element: element)
            let minCount = try count("minCount", attributes, default: 0, fail: fail, element: element)
            let rule = try deleteRule(attributes["deletionRule"], fail: fail, element: element)
            current?.relationships.append(RelationshipDescription(
                name: relationshipName, destinationEntityName: destination, inverseName: attributes["inverseName"],
                isToMany: toMany, isOrdered: flag("ordered"), isOptional: flag("optional"), isTransient: flag("transient"),
                deleteRule: rule, minCount: minCount, maxCount: maxCount,
                renamingIdentifier: attributes["elementID"], versionHashModifier: attributes["versionHashModifier"]))
        case "fetchedProperty" where parent == "entity":
            fetchedProperty = FetchedPropertyDescription(name: try required("name", of: "fetchedProperty"))
        case "fetchRequest" where parent == "fetchedProperty":
            fetchedProperty?.destinationEntityName = attributes["entity"]
            fetchedProperty?.predicateFormat = attributes["predicateString"]
        case "fetchIndex" where parent == "entity":
            current?.fetchIndexes.append(FetchIndexDescription(name: try required("name", of: "fetchIndex"), elements: []))
        case "fetchIndexElement" where parent == "fetchIndex":
            let element = "fetchIndexElement of \(current?.name ?? "?")"
            let property = try required("property", of: element)
            let kind: FetchIndexDescription.Element.Kind
            switch attributes["type"] {
            case nil, "Binary": kind = .binary
            case "RTree": kind = .rTree
            case let other?: throw fail("unknown fetch index type \"\(other)\"", element)
            }
            let index = (current?.fetchIndexes.count ?? 0) - 1
            if index >= 0 {
                current?.fetchIndexes[index].elements.append(
                    FetchIndexDescription.Element(propertyName: property, kind: kind, isAscending: attributes["order"] != "descending"))
            }
        case "uniquenessConstraint":
            constraint = []
        case "constraint" where parent == "uniquenessConstraint":
            constraint?.append(try required("value", of: "constraint"))
        case "userInfo":
            userInfoOwnerIsEntity = parent == "entity"
        case "entry" where parent == "userInfo" && userInfoOwnerIsEntity:
            if let key = attributes["key"] { current?.userInfo[key] = attributes["value"] ?? "" }
        default:
            break
        }
    }

    private func count(_ key: String, _ attributes: [String: String], default value: Int,
                       fail: (String, String) -> ModelError, element: String) throws(ModelError) -> Int {
        guard let text = attributes[key] else { return value }
        guard let number = Int(text), number >= 0, number <= Int(Int32.max) else { throw fail("\(key)=\"\(text)\" is not a count", element) }
        return number
    }

    private func deleteRule(_ name: String?, fail: (String, String) -> ModelError, element: String) throws(ModelError) -> DeleteRule {
        switch name {
        case nil, "Nullify": return .nullify
        case "Cascade": return .cascade
        case "Deny": return .deny
        case "No Action": return .noAction
        case let other?: throw fail("unknown deletionRule \"\(other)\"", element)
        }
    }
}
