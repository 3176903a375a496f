import ArgumentParser
import Foundation
import OrderedCollections
import PropertyList

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

extension PlistCommand {
    /// Checks the arguments as a whole and resolves them; every problem is a
    /// `ValidationError`, so the process exits with status 64.
    func invocation() throws -> PlistInvocation {
        var paths = files
        let verb = try resolveVerb(paths: &paths)
        guard !paths.isEmpty else { throw ValidationError("No files specified.") }
        try checkOutputOptions(for: verb, fileCount: paths.count)
        return PlistInvocation(
            verb: verb, paths: paths, silent: output.silent, outputPath: output.output,
            outputExtension: output.outputExtension, readable: output.readable,
            terminatingNewline: !output.noNewline)
    }

    private func resolveVerb(paths: inout [String]) throws -> PlistInvocation.Verb {
        let given: [(name: String, isGiven: Bool)] = [
            ("-lint", command.lint), ("-p", command.print), ("-convert", command.convert != nil),
            ("-insert", command.insert != nil), ("-replace", command.replace != nil),
            ("-remove", command.remove != nil), ("-extract", command.extract != nil),
            ("-type", command.type != nil), ("-create", command.create != nil),
        ]
        let names = given.filter(\.isGiven).map(\.name)
        guard names.count <= 1 else {
            throw ValidationError("Give only one command option; found \(names.joined(separator: ", ")).")
        }
        let verbName = names.first ?? "-lint"
        let valueNames = value.givenValueOptions
        if verbName != "-insert" && verbName != "-replace", let first = valueNames.first {
            throw ValidationError("\(first) is only used with -insert and -replace.")
        }
        if value.append && verbName != "-insert" {
            throw ValidationError("-append is only used with -insert.")
        }
        if value.expect != nil && verbName != "-extract" && verbName != "-type" {
            throw ValidationError("-expect is only used with -extract and -type.")
        }

        if let format = command.convert { return .convert(format) }
        if let format = command.create { return .create(format) }
        if let keyPath = command.insert {
            let newValue = try value.parsedValue(for: verbName)
            return .edit(PlistKeyPath(parsing: keyPath), value.append ? .append(newValue) : .insert(newValue))
        }
        if let keyPath = command.replace {
            return .edit(PlistKeyPath(parsing: keyPath), .replace(try value.parsedValue(for: verbName)))
        }
        if let keyPath = command.remove { return .edit(PlistKeyPath(parsing: keyPath), .remove) }
        if let keyPath = command.extract {
            // plutil's grammar is `-extract keypath format file…`: the format is
            // the first argument after the key path.
            guard !paths.isEmpty else { throw ValidationError("-extract needs a key path and a format.") }
            let name = paths.removeFirst()
            guard let format = PlistExtractFormat(argument: name) else {
                throw ValidationError(
                    "Unknown format '\(name)' for -extract; use one of \(PlistExtractFormat.allNames.joined(separator: ", ")).")
            }
            return .extract(PlistKeyPath(parsing: keyPath), format, expect: value.expect)
        }
        if let keyPath = command.type { return .type(PlistKeyPath(parsing: keyPath), expect: value.expect) }
        return command.print ? .print : .lint
    }

    private func checkOutputOptions(for verb: PlistInvocation.Verb, fileCount: Int) throws {
        switch verb {
        case .lint, .print, .create:
            let name = switch verb {
            case .lint: "-lint"
            case .print: "-p"
            default: "-create"
            }
            if output.output != nil { throw ValidationError("-o is not used with \(name).") }
            if output.outputExtension != nil { throw ValidationError("-e is not used with \(name).") }
        default:
            if output.output != nil && output.outputExtension != nil {
                throw ValidationError("Give -o or -e, not both.")
            }
            // plutil lets each file overwrite the last; refusing is kinder.
            if let path = output.output, path != "-", fileCount > 1 {
                throw ValidationError("-o \(path) takes one file; use -e, or -o - for standard output.")
            }
        }
        if let outputExtension = output.outputExtension, outputExtension.isEmpty || outputExtension.contains("/") {
            throw ValidationError("-e needs an extension without '/'.")
        }
    }
}

extension PlistValueOptions {
    /// The type options given, by name.
    var givenValueOptions: [String] {
        let given: [(String, Bool)] = [
            ("-bool", bool != nil), ("-integer", integer != nil), ("-float", float != nil),
            ("-string", string != nil), ("-date", date != nil), ("-data", data != nil),
            ("-xml", xml != nil), ("-json", json != nil), ("-array", array), ("-dictionary", dictionary),
        ]
        return given.filter(\.1).map(\.0)
    }

    /// The value the one type option gives.
    func parsedValue(for verbName: String) throws -> PropertyListValue {
        let names = givenValueOptions
        guard names.count == 1 else {
            if names.isEmpty {
                throw ValidationError("\(verbName) needs a value: -bool, -integer, -float, -string, -date, -data, -xml, -json, -array or -dictionary.")
            }
            throw ValidationError("Give only one value option; found \(names.joined(separator: ", ")).")
        }
        if let bool { return .bool(try Self.parseBool(bool)) }
        if let integer { return .integer(try Self.parseInteger(integer)) }
        if let float {
            guard let real = Double(float) else { throw ValidationError("-float needs a number, not '\(float)'.") }
            return .real(real)
        }
        if let string { return .string(string) }
        if let date {
            guard let parsed = DateText.parseISO8601(date) else {
                throw ValidationError("-date needs a date like 2024-01-31T13:45:00Z, not '\(date)'.")
            }
            return .date(parsed)
        }
        if let data {
            // Line breaks and spaces are allowed, as in wrapped Base64; other
            // stray characters are errors, not silently dropped.
            guard let bytes = Data(base64Encoded: String(data.filter { !$0.isWhitespace })) else {
                throw ValidationError("-data needs Base64, which '\(data)' is not.")
            }
            return .data(bytes)
        }
        if let xml {
            do { return try PlistRunner.decode(Data(xml.utf8)).value } catch {
                throw ValidationError("-xml: \(error)")
            }
        }
        if let json {
            do { return try JSONPropertyListReader().read(Data(json.utf8)) } catch {
                throw ValidationError("-json: \(error)")
            }
        }
        return array ? .array([]) : .dictionary([:])
    }

    private static func parseBool(_ text: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw ValidationError("-bool needs true, yes, 1, false, no or 0, not '\(text)'.")
        }
    }

    private static func parseInteger(_ text: String) throws -> PropertyListInteger {
        if let signed = Int64(text) { return PropertyListInteger(signed) }
        if let unsigned = UInt64(text) { return PropertyListInteger(unsigned) }
        throw ValidationError("-integer needs a whole number from -2^63 to 2^64-1, not '\(text)'.")
    }
}

// plutil spells its options with one dash (`-convert`, `-insert`); they are
// declared as single-dash long names, which ArgumentParser tries before
// reading `-string` as the short flags `-s -t -r …`. Options that take a
// value parse it unconditionally, so `-integer -5` and `-o -` work.

/// The command options of `sandbox plist`: at most one may be given.
struct PlistCommandOptions: ParsableArguments {
    @Flag(name: .customLong("lint", withSingleDash: true),
          help: "Check the files for errors and print '<file>: OK' for each good one (the default).")
    var lint = false

    @Flag(name: .customShort("p"),
          help: "Print the files for people to read. Not for parsing: this layout is not stable.")
    var print = false

    @Option(name: .customLong("convert", withSingleDash: true),
            help: ArgumentHelp("Rewrite the files in <format>.", valueName: "format"))
    var convert: PlistFormatName?

    @Option(name: .customLong("insert", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("Insert the value given by a type option at <keypath>; the key must be new.", valueName: "keypath"))
    var insert: String?

    @Option(name: .customLong("replace", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("Set the value at <keypath>, whether or not one is there.", valueName: "keypath"))
    var replace: String?

    @Option(name: .customLong("remove", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("Remove the value at <keypath>.", valueName: "keypath"))
    var remove: String?

    @Option(name: .customLong("extract", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp(
                "Write the value at <keypath> to standard output, in the format given as the next argument: xml1, binary1, json, openstep or raw.",
                valueName: "keypath"))
    var extract: String?

    @Option(name: .customLong("type", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("Print the type of the value at <keypath>.", valueName: "keypath"))
    var type: String?

    @Option(name: .customLong("create", withSingleDash: true),
            help: ArgumentHelp("Create each file as an empty dictionary in <format>.", valueName: "format"))
    var create: PlistFormatName?
}

/// The type options that give the value for `-insert` and `-replace`:
/// exactly one is required there, and none is allowed elsewhere.
struct PlistValueOptions: ParsableArguments {
    @Option(name: .customLong("bool", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("A Boolean: true, yes or 1; false, no or 0 (any case).", valueName: "value"))
    var bool: String?

    @Option(name: .customLong("integer", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("An integer from -2^63 to 2^64-1.", valueName: "value"))
    var integer: String?

    @Option(name: .customLong("float", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("A 64-bit real.", valueName: "value"))
    var float: String?

    @Option(name: .customLong("string", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("A string.", valueName: "value"))
    var string: String?

    @Option(name: .customLong("date", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("A date as XML property lists write it, 2024-01-31T13:45:00Z.", valueName: "value"))
    var date: String?

    @Option(name: .customLong("data", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("Bytes, in Base64.", valueName: "base64"))
    var data: String?

    @Option(name: .customLong("xml", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("A property list (XML, OpenStep or JSON), for compound values.", valueName: "plist"))
    var xml: String?

    @Option(name: .customLong("json", withSingleDash: true), parsing: .unconditional,
            help: ArgumentHelp("A JSON value, for compound values.", valueName: "json"))
    var json: String?

    @Flag(name: .customLong("array", withSingleDash: true), help: "An empty array.")
    var array = false

    @Flag(name: .customLong("dictionary", withSingleDash: true), help: "An empty dictionary.")
    var dictionary = false

    @Flag(name: .customLong("append", withSingleDash: true),
          help: "With -insert: append the value to the array at <keypath>.")
    var append = false

    @Option(name: .customLong("expect", withSingleDash: true),
            help: ArgumentHelp("With -extract or -type: fail unless the value is of <type>.", valueName: "type"))
    var expect: PlistTypeName?
}

/// Where and how results are written.
struct PlistOutputOptions: ParsableArguments {
    @Flag(name: .customShort("s"), help: "Be silent on success (no '<file>: OK' lines).")
    var silent = false

    @Option(name: .customShort("o"), parsing: .unconditional,
            help: ArgumentHelp("Write the result to <path> instead ('-' is standard output); one file only, unless '-'.",
                               valueName: "path"))
    var output: String?

    @Option(name: .customShort("e"), parsing: .unconditional,
            help: ArgumentHelp("Write each result beside its file, with the extension replaced by <extension>.",
                               valueName: "extension"))
    var outputExtension: String?

    @Flag(name: .customShort("r"), help: "Human-readable JSON: keys sorted (JSON is always indented).")
    var readable = false

    @Flag(name: .customShort("n"), help: "No newline after raw and -type output.")
    var noNewline = false
}
