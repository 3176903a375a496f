import PropertyList

/// One run of `sandbox plist`, checked and resolved from the arguments.
struct PlistInvocation: Hashable, Sendable {
    /// What to do to each file.
    enum Verb: Hashable, Sendable {
        case lint
        case print
        case convert(PlistFormatName)
        case create(PlistFormatName)
        case edit(PlistKeyPath, PlistEdit)
        case extract(PlistKeyPath, PlistExtractFormat, expect: PlistTypeName?)
        case type(PlistKeyPath, expect: PlistTypeName?)
    }

    var verb: Verb
    /// The files, in order; `-` is standard input (or output, for `-create`).
    var paths: [String]
    /// `-s`.
    var silent = false
    /// `-o`: a path, or `-` for standard output.
    var outputPath: String?
    /// `-e`: the extension to give results written beside their input.
    var outputExtension: String?
    /// `-r`.
    var readable = false
    /// `-n`.
    var terminatingNewline = true
}
