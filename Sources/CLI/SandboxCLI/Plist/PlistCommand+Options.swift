import ArgumentParser

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
