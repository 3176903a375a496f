import Foundation
import GRDB

/// A fixture's `sqlite_master`, read without creating a file beside it
/// (`immutable=1`: the schema of every fixture is in its main file).
enum FixtureSchema {
    struct Entry: Hashable {
        var type: String
        var name: String
        var sql: String
    }

    /// `immutable` for a fixture; false for a store a test made (its
    /// schema may still be in its -wal).
    static func entries(_ path: String, immutable: Bool = true) throws -> [Entry] {
        var configuration = Configuration()
        configuration.readonly = immutable
        let queue = try DatabaseQueue(path: immutable ? "file:\(path)?immutable=1" : path, configuration: configuration)
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL").map {
                Entry(type: $0[0], name: $0[1], sql: $0[2])
            }
        }
    }

    /// The statements a layout should reproduce: the model's tables and
    /// indexes, without Core Data's persistent-history tables (`A…`) and
    /// derived-attribute triggers, which no model lists.
    static func modelEntries(_ path: String) throws -> [Entry] {
        try entries(path).filter { entry in
            entry.type != "trigger" && !entry.name.hasPrefix("A") && !entry.name.hasPrefix("Z_TRANSACTION")
        }
    }
}
