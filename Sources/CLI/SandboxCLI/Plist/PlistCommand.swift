import ArgumentParser

/// `sandbox plist`: check, print, convert and edit property lists, with the
/// options and behaviour of Apple's `plutil`.
///
/// The work is done by ``PlistRunner``; this type declares the arguments and
/// turns them into a ``PlistInvocation`` (see `PlistCommand+Invocation.swift`).
struct PlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Check, print, convert and edit property lists (plutil's options).",
        usage: "sandbox plist [<command option>] [<other options>] <file> ...",
        discussion: """
            Give one command option (-lint when none is given), then the files; '-' is standard \
            input, and '--' makes every later argument a file. Commands that change a file rewrite \
            it in its own format, atomically, unless -o or -e says where to write. The formats are \
            binary1, xml1, json and openstep.

            Examples:
              sandbox plist -lint Info.plist Settings.plist
              sandbox plist -convert json -o - Preferences.plist
              sandbox plist -insert Items.0 -string first Data.plist
              sandbox plist -extract Items raw Data.plist

            Key paths are dictionary keys joined by '.'; a number indexes an array (Items.0.Name). \
            Write '\\.' for a dot inside a key and '\\\\' for a backslash.

            Unlike plutil, -extract writes to standard output unless -o or -e is given (plutil \
            overwrites the input), and malformed -bool, -integer and -float values are errors \
            instead of false or 0. The -p layout is for people, not programs: it may change.

            Exit status: 0 on success; 1 if any file failed (each failure is printed as \
            '<file>: <reason>' on standard error, and the other files are still processed); \
            64 for a usage error.
            """
    )

    // plutil's `-help`. Listing it in `helpNames` is not enough: ArgumentParser
    // would first read it as `-h -e -l -p`, and `-e` would want a value.
    @Flag(name: .customLong("help", withSingleDash: true), help: .hidden)
    var helpRequested = false

    @OptionGroup(title: "Command options")
    var command: PlistCommandOptions

    @OptionGroup(title: "Value options")
    var value: PlistValueOptions

    @OptionGroup(title: "Other options")
    var output: PlistOutputOptions

    @Argument(help: ArgumentHelp(
        "The property lists ('-' is standard input). With -extract, the output format comes first.",
        valueName: "file"))
    var files: [String] = []

    mutating func validate() throws {
        if helpRequested { throw CleanExit.helpRequest(self) }
    }

    // The arguments are checked here rather than in `validate()`, which runs
    // before ArgumentParser reports unknown options: `-x.plist` should say
    // "Unknown option", not "No files specified". The message is printed
    // here because an error thrown from `run()` would show the root
    // command's usage.
    func run() throws {
        let invocation: PlistInvocation
        do {
            invocation = try self.invocation()
        } catch {
            let message = (error as? ValidationError)?.message ?? "\(error)"
            FileOutput.writeToStandardError("""
                Error: \(message)
                Usage: \(Self.configuration.usage ?? "sandbox plist")
                  See 'sandbox plist -help' for more information.

                """)
            throw ExitCode.validationFailure
        }
        try PlistRunner(invocation: invocation).run()
    }
}
