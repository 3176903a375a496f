import ArgumentParser

/// `sandbox cache …`: an app's downloaded files and their manifest.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Check and re-fetch the files an app downloaded into Library/Caches.",
        discussion: """
            Every file an app downloads through the Network module is recorded in \
            Library/Application Support/CacheManifest.sqlite, which a purge does not touch.

            Examples:
              sandbox cache status com.example.Possessions
              sandbox cache verify com.example.Possessions --json
              sandbox cache refetch com.example.Possessions
            """,
        subcommands: [CacheStatusCommand.self, CacheVerifyCommand.self, CacheRefetchCommand.self])
}
