import ArgumentParser

/// `sandbox defaults`: read and write an app's preferences domains with the
/// verbs and value flags of macOS `defaults`.
struct DefaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "defaults",
        abstract: "Read and write preferences domains (macOS defaults' verbs).",
        discussion: """
            A domain is a bundle id inside the container given by --container <dir> (its file is \
            Library/Preferences/<bundle id>.plist), or of an app installed on the device given by \
            --device <name|path>; -g (the global domain, .GlobalPreferences.plist, the device's with \
            --device); or the path of a plist file (with or without '.plist'). Options go before the domain.

            Writes go through the same file lock and per-key merge as a running app, so they never \
            lose the app's own changes; the file is written as a binary property list.

            Examples:
              sandbox defaults write --container data com.example.app TermsAccepted -bool YES
              sandbox defaults write --container data com.example.app Sizes -array 1 2 3
              sandbox defaults read --container data com.example.app TermsAccepted
              sandbox defaults read --json /tmp/prefs.plist
              sandbox defaults read --device default com.example.app
              sandbox defaults read-type --container data com.example.app TermsAccepted
              sandbox defaults rename --container data com.example.app OldKey NewKey
              sandbox defaults find --container data dark
              sandbox defaults export --container data com.example.app - > prefs.xml

            Text output is old-style property-list text, for people; --json is stable: sorted keys, \
            ISO 8601 dates and base64 data. Exit status: 0 on success; 1 on failure, including a \
            missing domain or key; 74 when the disk is full; 64 for a usage error.
            """,
        subcommands: [
            DefaultsReadCommand.self, DefaultsWriteCommand.self, DefaultsDeleteCommand.self,
            DefaultsDomainsCommand.self, DefaultsExportCommand.self, DefaultsImportCommand.self,
            DefaultsRenameCommand.self, DefaultsFindCommand.self, DefaultsReadTypeCommand.self,
        ]
    )
}
