import ArgumentParser

/// `sandbox keychain`: add, find, delete and list items of a device's
/// keychain store from the command line.
struct KeychainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain",
        abstract: "Add, find, delete and list the items of a device keychain store.",
        discussion: """
            Every command opens the store in --store <dir> with the device secret read from \
            --device-secret-file <path> (the file's bytes) or, failing that, from the \
            \(KeychainStoreOptions.secretVariable) environment variable (its UTF-8 bytes). The \
            secret must be at least 16 bytes and the same every time: it is never written to the store.

            With --app the command acts as that app: it sees only the app's access groups (the \
            --entitlement-group values, then the app identifier) and adds to the first of them. \
            Without --app it acts as a device tool: it sees every group, and add needs --access-group.

            Examples:
              sandbox keychain add --store ks --device-secret-file secret \\
                  --app TEAM.com.example.mail --service imap --account ann --data hunter2
              sandbox keychain find --store ks --device-secret-file secret --service imap \\
                  -w
              sandbox keychain list --store ks --device-secret-file secret --json

            The text layout is for people and may change; --json is stable: an object whose \
            "items" array holds one object per item with sorted keys, ISO 8601 dates and base64 data. \
            Exit status: 0 on success; 1 on failure, including when no item matches; 64 for a usage error.
            """,
        subcommands: [KeychainAddCommand.self, KeychainFindCommand.self, KeychainDeleteCommand.self, KeychainListCommand.self]
    )
}
