import ArgumentParser
import Foundation
import PredicateFormat
import Store

/// `sandbox store query <store> <Entity> --where … --sort … --limit …`.
struct StoreQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Fetch the objects of an entity that match an NSPredicate format string.",
        discussion: """
            Examples:
              sandbox store query Possessions.sqlite Possession --where 'possessionName contains[c] "spork"'
              sandbox store query notes.sqlite Note --where 'folder.name ==[cd] "recettes"' --sort modified:desc --limit 20 --json
              sandbox store query cars.sqlite Person --where 'cars.@count > 5' --sort lastName:ci
            """)

    @OptionGroup var target: StoreTarget
    @OptionGroup var query: StoreQueryOptions

    func run() throws {
        try CommandRunner.run {
            let request = try query.request()
            let (store, _, _) = try target.open()
            let objects = try store.fetch(request)
            let rows = objects.map { StoreObjectJSON($0, in: store) }
            try target.output(json: rows, text: Self.text(rows, entity: request.entityName))
        }
    }

    static func text(_ rows: [StoreObjectJSON], entity: String) -> String {
        var lines = ["\(rows.count) \(entity) object\(rows.count == 1 ? "" : "s")"]
        for row in rows {
            lines.append("")
            lines.append("\(row.id) (version \(row.version))")
            for key in row.values.keys.sorted() { lines.append("  \(key) = \(row.values[key]?.text ?? "nil")") }
            for key in row.relationships.keys.sorted() { lines.append("  \(key) -> \(row.relationships[key] ?? "")") }
        }
        return lines.joined(separator: "\n")
    }
}

/// `sandbox store count <store> <Entity> --where …`.
struct StoreCountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Count the objects of an entity that match an NSPredicate format string.",
        discussion: "Example: sandbox store count Possessions.sqlite Possession --where 'valueInDollars > 40' --json")

    @OptionGroup var target: StoreTarget
    @OptionGroup var query: StoreQueryOptions

    struct CountJSON: Encodable {
        var entity: String
        var predicate: String?
        var count: Int
    }

    func run() throws {
        try CommandRunner.run {
            let request = try query.request()
            let (store, _, _) = try target.open()
            let result = CountJSON(entity: request.entityName, predicate: request.predicate.map { "\($0)" }, count: try store.count(request))
            try target.output(json: result, text: "\(result.count)")
        }
    }
}
