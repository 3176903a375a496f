import ArgumentParser

/// `sandbox store …`: Core Data stores read as the app read them.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Read a Core Data SQLite store: its schema, and its objects through NSPredicate format strings.",
        discussion: """
            A store opens read-only and nothing is created beside it (not even a -shm), so a store \
            extracted from a backup or a forensic image can be read in place. The model is the one \
            Core Data cached in the store (Z_MODELCACHE) unless --model names an .xcdatamodel \
            contents file or a compiled .mom.

            Examples:
              sandbox store schema Possessions.sqlite
              sandbox store query Possessions.sqlite Possession --where 'possessionName contains[c] "spork"' --sort possessionName --limit 20
              sandbox store count Possessions.sqlite Possession --where 'valueInDollars > 40' --json
              sandbox backup extract ~/backup HomeDomain Library/Notes/notes.sqlite -o notes.sqlite && sandbox store schema notes.sqlite
            """,
        subcommands: [StoreSchemaCommand.self, StoreQueryCommand.self, StoreCountCommand.self])
}
