import ArgumentParser
import PredicateFormat
import Store

/// The request a `sandbox store query` or `count` runs.
struct StoreQueryOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The entity to fetch.", valueName: "entity"))
    var entity: String

    @Option(name: .customLong("where"),
            help: ArgumentHelp("An NSPredicate format string: 'name contains[c] \"lamp\"', 'value > 40 AND owner.name BEGINSWITH \"A\"'.",
                               valueName: "format"))
    var predicate: String?

    @Option(help: ArgumentHelp("A sort key, repeatable: KEY, KEY:desc, KEY:ci (case-insensitive), KEY:localized, "
                               + "KEY:standard (Finder-like, numbers by value); e.g. --sort name:ci --sort date:desc.",
                               valueName: "key"))
    var sort: [String] = []

    @Option(help: "Return at most this many objects.")
    var limit: Int = 0

    @Option(help: "Skip this many objects first.")
    var offset: Int = 0

    @Flag(help: "Match only the entity's own objects, not its sub-entities'.")
    var excludeSubentities = false

    func request() throws -> FetchRequest {
        guard limit >= 0, offset >= 0 else { throw ValidationError("--limit and --offset cannot be negative") }
        var request = FetchRequest(entityName: entity, fetchLimit: limit, fetchOffset: offset,
                                   includesSubentities: !excludeSubentities)
        if let predicate {
            do { request.predicate = try FormatPredicate(format: predicate, arguments: []) } catch {
                throw ValidationError("--where: \(error)")
            }
        }
        request.sortDescriptors = try sort.map(Self.sortDescriptor)
        return request
    }

    static func sortDescriptor(_ text: String) throws -> StoreSortDescriptor {
        let parts = text.split(separator: ":").map(String.init)
        guard let key = parts.first, !key.isEmpty else { throw ValidationError("--sort needs a key: --sort name") }
        var descriptor = StoreSortDescriptor(keyPath: key)
        for modifier in parts.dropFirst() {
            switch modifier.lowercased() {
            case "desc", "descending": descriptor.ascending = false
            case "asc", "ascending": descriptor.ascending = true
            case "ci": descriptor.comparison = .caseInsensitiveCompare
            case "localized": descriptor.comparison = .localizedCompare
            case "localized-ci": descriptor.comparison = .localizedCaseInsensitiveCompare
            case "standard": descriptor.comparison = .localizedStandardCompare
            default:
                throw ValidationError("--sort \(text): unknown modifier \(modifier) (use desc, ci, localized, localized-ci or standard)")
            }
        }
        return descriptor
    }
}
