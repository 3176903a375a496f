import GRDB
import PredicateFormat

extension PersistentStore {
    /// The configuration of every connection to a store: the predicate
    /// language's folding, LIKE, MATCHES and collation functions are
    /// registered on each, so any compiled fetch runs on any connection.
    static func connectionConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.registerPredicateFunctions() }
        return configuration
    }
}
