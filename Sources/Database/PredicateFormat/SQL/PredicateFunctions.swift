import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#elseif canImport(SQLite3)
import SQLite3
#endif

/// The names of the SQL functions the compiled predicates call.
enum PredicateFunctions {
    /// `pf_fold(text, options)`: ``StringFolding/fold(_:_:)``.
    static let fold = "pf_fold"
    /// `pf_contains(haystack, foldedNeedle, options)`: 1 when the folded haystack contains the needle, else 0 (also for NULL).
    static let contains = "pf_contains"
    static let beginsWith = "pf_beginswith"
    static let endsWith = "pf_endswith"
    /// `pf_like(text, pattern, options)`: `LIKE` with `*` and `?`.
    static let like = "pf_like"
    /// `pf_matches(text, pattern, options)`: whole-string ICU regular expression.
    static let matches = "pf_matches"
}

extension Database {
    /// Registers the functions and collations that compiled predicates and
    /// sort descriptors use. Call it on every connection that runs them; for a
    /// `DatabasePool` or `DatabaseQueue`, in `Configuration.prepareDatabase`:
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.prepareDatabase { db in db.registerPredicateFunctions() }
    /// ```
    ///
    /// All are deterministic and pure, so SQLite may use them in indexes.
    public func registerPredicateFunctions() {
        registerTextSearchFunctions()
        add(function: DatabaseFunction(PredicateFunctions.like, argumentCount: 3, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return 0 }
            let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(values[2]) ?? 0)
            return PatternMatching.like(text, pattern: pattern, options: options) ? 1 : 0
        })
        add(function: DatabaseFunction(PredicateFunctions.matches, argumentCount: 3, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return 0 }
            let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(values[2]) ?? 0)
            return try PatternMatching.matches(text, pattern: pattern, options: options) ? 1 : 0
        })
    }
}
