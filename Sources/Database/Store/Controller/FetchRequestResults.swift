import Foundation
import GRDB
import PredicateFormat

/// An object's identity as a results snapshot keeps it: its entity number
/// and primary key in one 64-bit value, so a list of 100,000 costs 800 KB.
public struct StoreObjectKey: ResultsCacheIdentifier, Comparable, CustomStringConvertible {
    public var entityNumber: Int
    public var primaryKey: Int64

    public init(entityNumber: Int, primaryKey: Int64) {
        self.entityNumber = entityNumber
        self.primaryKey = primaryKey
    }

    public var cacheValue: Int64 { Int64(entityNumber) << 48 | (primaryKey & 0xFFFF_FFFF_FFFF) }

    public init(cacheValue: Int64) {
        entityNumber = Int(cacheValue >> 48)
        primaryKey = cacheValue & 0xFFFF_FFFF_FFFF
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.cacheValue < rhs.cacheValue }
    public var description: String { "\(entityNumber)/p\(primaryKey)" }
}

/// A fetch request as a ``ResultsSource``: what ``FetchedResultsController``
/// reads from a store.
///
/// Each read is one query for the identifiers, versions (`Z_OPT`) and
/// section values of the matches, in the request's order; objects are read
/// by identifier, a batch at a time.
public struct FetchRequestResults: ResultsSource {
    public let store: PersistentStore
    public let request: FetchRequest
    /// The attribute whose value names each object's section (`sectionNameKeyPath`).
    /// Sections follow the request's order, so it should be the first sort key.
    public let sectionKeyPath: String?

    public init(store: PersistentStore, request: FetchRequest, sectionKeyPath: String? = nil) throws(StoreError) {
        let entity = try store.layout.requireEntity(request.entityName)
        if let sectionKeyPath, entity.attributes[sectionKeyPath] == nil {
            throw StoreError(.invalidValue, "the section key path \(sectionKeyPath) is not an attribute of \(entity.name)",
                             path: store.path, entity: entity.name)
        }
        self.store = store
        self.request = request
        self.sectionKeyPath = sectionKeyPath
    }

    /// The request's fingerprint for the persistent cache: the store's
    /// identity, the entity, the predicate's canonical text (after any
    /// substitution), the sort descriptors, the window and the sections.
    public func fingerprint(storeIdentifier: String) -> ResultsFingerprint {
        ResultsFingerprint(store: storeIdentifier, entity: request.entityName + (request.includesSubentities ? "" : " only"),
                           predicate: request.predicate.map { "\($0)" },
                           sortDescriptors: request.sortDescriptors.map { "\($0)" } + ["limit \(request.fetchLimit) offset \(request.fetchOffset)"],
                           sectionKeyPath: sectionKeyPath)
    }

    public func currentResults() throws -> VersionedResults<StoreObjectKey> {
        let entity = try store.layout.requireEntity(request.entityName)
        let sectionColumn = sectionKeyPath.flatMap { entity.attributes[$0] }
        let statement = try store.selectStatement(
            for: request, columns: "t0.Z_PK, t0.Z_ENT, t0.Z_OPT" + (sectionColumn.map { ", t0.\($0.column)" } ?? ""))
        return try store.read { db in
            var sections: [ResultsSection<StoreObjectKey>] = []
            var versions: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.arguments)
            while let row = try rows.next() {
                let key = StoreObjectKey(entityNumber: row[1], primaryKey: row[0])
                versions.append(row[2])
                let name = sectionColumn.map { Self.sectionName(ColumnValueCoding.attributeValue(row[3] ?? .null, type: $0.type)) } ?? ""
                if sections.isEmpty || sections[sections.count - 1].name != name {
                    sections.append(ResultsSection(name: name, indexTitle: ResultsSection<StoreObjectKey>.defaultIndexTitle(forSectionName: name),
                                                   ids: []))
                }
                sections[sections.count - 1].ids.append(key)
            }
            return VersionedResults(snapshot: ResultsSnapshot(sections: sections), versions: versions)
        }
    }

    public func objects(for ids: [StoreObjectKey]) throws -> [ManagedObject] {
        try store.objects(with: ids.map { key in
            ObjectID(entityName: store.layout.entity(number: key.entityNumber)?.name ?? request.entityName, primaryKey: key.primaryKey)
        })
    }

    public func dataToken() throws -> String {
        try store.dataToken(forEntity: request.entityName)
    }

    /// A section's name: the value as text, `""` for nil, as Core Data names them.
    static func sectionName(_ value: AttributeValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .bool(let flag): flag ? "1" : "0"
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .decimal(let number): "\(number)"
        case .date(let date): date.formatted(.iso8601)
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .data(let data): data.base64EncodedString()
        case .collection(let values): values.map(sectionName).joined(separator: ", ")
        }
    }
}
