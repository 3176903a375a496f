import ArgumentParser
import Foundation
import PropertyList

/// Carries out a ``PlistInvocation`` file by file, as `plutil` does: a file
/// that fails is reported as `<file>: <reason>` on standard error and the
/// others are still processed; the exit status is 1 if any failed.
struct PlistRunner {
    var invocation: PlistInvocation

    /// Processes every file; throws `ExitCode.failure` if any failed.
    func run() throws {
        var failed = false
        for path in invocation.paths {
            do {
                try process(path)
            } catch {
                failed = true
                FileOutput.writeToStandardError("\(Self.displayName(path)): \(error)\n")
            }
        }
        if failed { throw ExitCode.failure }
    }

    private func process(_ path: String) throws {
        switch invocation.verb {
        case .lint:
            try Self.lint(FileInput.read(path))
            if !invocation.silent { try writeText("\(Self.displayName(path)): OK\n", to: .standardOutput) }
        case .print:
            let document = try Self.read(path)
            ProcessLifetime.keep(document)
            try writeText(PlistPrettyPrinter.render(document.value), to: .standardOutput)
        case .convert(let name):
            try convert(FileInput.read(path), to: name.format, destination: destination(for: path, inPlace: true))
        case .create(let name):
            let destination: Destination = path == "-" ? .standardOutput : .file(path)
            try write(.dictionary([:]), as: name.format, to: destination)
        case .edit(let keyPath, let edit):
            let document = try Self.read(path)
            let edited = try document.value.applying(edit, at: keyPath)
            try write(edited, as: document.format, to: destination(for: path, inPlace: true))
        case .extract(let keyPath, let format, let expect):
            let value = try Self.value(at: keyPath, in: path, expecting: expect)
            switch format {
            case .raw: try writeLine(PlistRawText.text(for: value), to: destination(for: path, inPlace: false))
            case .file(let name): try write(value, as: name.format, to: destination(for: path, inPlace: false))
            }
        case .type(let keyPath, let expect):
            let value = try Self.value(at: keyPath, in: path, expecting: expect)
            try writeLine(PlistTypeName(of: value).rawValue, to: destination(for: path, inPlace: false))
        }
    }

    // MARK: - Reading

    /// The value and format of the property list at `path`.
    static func read(_ path: String) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        try decode(FileInput.read(path))
    }

    /// Decodes a property list in any format, JSON included.
    ///
    /// Format detection sends text that starts with `{` or `"` to OpenStep,
    /// yet `{}` and `"text"` are JSON too. JSON is tried first there, so that
    /// a JSON file stays JSON when an edit rewrites it (OpenStep text fails
    /// JSON at its first `=` or `;`). plutil reads OpenStep first, but cannot
    /// write OpenStep, so it never turns a JSON file into one.
    static func decode(_ data: Data) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        let format = PropertyListFormat.detect(data)
        if let foreign = ForeignFormat.detect(data) {
            throw PlistCommandError("this is \(foreign.displayName), not a property list")
        }
        guard format == .openStep else { return (try PropertyListValue.decode(data, as: format), format) }
        return try jsonThenOpenStep(json: { (try JSONPropertyListReader().read(data), .json) },
                                    openStep: { (try PropertyListValue.decode(data, as: .openStep), .openStep) })
    }

    /// What `json` gives, else what `openStep` gives; when both fail, an
    /// error that says why for both, as plutil does. Text that format
    /// detection calls OpenStep is read this way (see ``decode(_:)``).
    static func jsonThenOpenStep<Result>(json: () throws -> Result, openStep: () throws -> Result) throws -> Result {
        do {
            return try json()
        } catch let jsonError {
            do {
                return try openStep()
            } catch {
                throw PlistCommandError("\(error); as JSON: \(jsonError)")
            }
        }
    }

    /// Checks that `data` is a property list that ``decode(_:)`` reads,
    /// failing with the error it gives, without building its value (a cold
    /// process spends more on allocating a million values than on reading
    /// the file): each format's validator runs its decoder's checks, in the
    /// order ``decode(_:)`` tries the formats.
    static func lint(_ data: Data) throws {
        let format = PropertyListFormat.detect(data)
        if let foreign = ForeignFormat.detect(data) {
            throw PlistCommandError("this is \(foreign.displayName), not a property list")
        }
        switch format {
        case .binary: try BinaryPropertyListReader().validate(data)
        case .xml: try XMLPropertyListReader().validate(data)
        case .json: try JSONPropertyListReader().validate(data)
        case .openStep:
            try jsonThenOpenStep(json: { try JSONPropertyListReader().validate(data) },
                                 openStep: { try OpenStepPropertyListReader().validate(data) })
        }
    }

    /// `data` written as `format`: what ``decode(_:)`` then writing gives.
    /// A binary file converted to XML is streamed (never decoded into a
    /// value tree); other conversions decode.
    static func convert(_ data: Data, to format: PropertyListFormat, options: PropertyListWriteOptions) throws -> Data {
        if streams(data, to: format) {
            return try PropertyListValue.convert(data, from: .binary, to: .xml, options: options)
        }
        let document = try decode(data)
        ProcessLifetime.keep(document)
        return try document.value.encoded(as: format, options: options)
    }

    /// ``convert(_:to:options:)`` handing the output to `write` in
    /// pieces: a binary file converted to XML is written while it is still
    /// being converted (see `PropertyListValue.convert(_:from:to:limits:options:into:)`).
    static func convert(_ data: Data, to format: PropertyListFormat, options: PropertyListWriteOptions,
                        into write: (UnsafeRawBufferPointer) throws -> Void) throws {
        if streams(data, to: format) {
            return try PropertyListValue.convert(data, from: .binary, to: .xml, options: options, into: write)
        }
        try convert(data, to: format, options: options).withUnsafeBytes { try write($0) }
    }

    /// Whether converting `data` to `format` streams: a binary file to XML.
    private static func streams(_ data: Data, to format: PropertyListFormat) -> Bool {
        format == .xml && PropertyListFormat.detect(data) == .binary
    }

    private static func value(at keyPath: PlistKeyPath, in path: String, expecting expect: PlistTypeName?) throws -> PropertyListValue {
        let value = try read(path).value.value(at: keyPath)
        if let expect, PlistTypeName(of: value) != expect {
            throw PlistCommandError("the value at key path \(keyPath) is \(PlistTypeName(of: value).withArticle), not \(expect.withArticle)")
        }
        return value
    }

    /// How a file is named in messages: standard input as `<stdin>`, as plutil does.
    static func displayName(_ path: String) -> String {
        path == "-" ? "<stdin>" : path
    }

    // MARK: - Writing

    /// Where a result is written.
    enum Destination: Hashable {
        case standardOutput
        case file(String)
    }

    /// Where the result for `path` goes: `-o`, else standard output for
    /// standard input, else `-e`'s sibling file, else the file itself
    /// (`inPlace`) or standard output.
    func destination(for path: String, inPlace: Bool) -> Destination {
        if let output = invocation.outputPath { return output == "-" ? .standardOutput : .file(output) }
        if path == "-" { return .standardOutput }
        if let newExtension = invocation.outputExtension {
            return .file(Self.replacingExtension(of: path, with: newExtension))
        }
        return inPlace ? .file(path) : .standardOutput
    }

    /// `dir/name.plist` → `dir/name.json`; a name without an extension gets one.
    /// Only the last path component is looked at, and a leading dot (`.hidden`)
    /// does not start an extension.
    static func replacingExtension(of path: String, with newExtension: String) -> String {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[nameStart...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return path[..<dot] + "." + newExtension
        }
        return path + "." + newExtension
    }

    /// Writes `data` converted to `format` to `destination`. A file is
    /// written as the conversion goes, into the atomic replace's temporary
    /// file; standard output gets nothing unless the whole conversion
    /// succeeds. Converting comes before writing, as when the whole output
    /// is made first: a file that cannot be converted reports that, not a
    /// write failure met on the way.
    private func convert(_ data: Data, to format: PropertyListFormat, destination: Destination) throws {
        let options = writeOptions(for: format)
        guard case .file(let path) = destination else {
            return try write(Self.convert(data, to: format, options: options), to: destination)
        }
        do {
            try FileOutput.replaceAtomically(path) { write in try Self.convert(data, to: format, options: options, into: write) }
        } catch let failure as FileIOError {
            _ = try Self.convert(data, to: format, options: options)
            throw failure
        }
    }

    private func write(_ value: PropertyListValue, as format: PropertyListFormat, to destination: Destination) throws {
        try write(value.encoded(as: format, options: writeOptions(for: format)), to: destination)
    }

    /// How values are written as `format`: JSON's keys sorted with `-r`.
    private func writeOptions(for format: PropertyListFormat) -> PropertyListWriteOptions {
        PropertyListWriteOptions(sortsKeys: invocation.readable && format == .json)
    }

    private func writeLine(_ text: String, to destination: Destination) throws {
        try writeText(invocation.terminatingNewline ? text + "\n" : text, to: destination)
    }

    private func writeText(_ text: String, to destination: Destination) throws {
        try write(Data(text.utf8), to: destination)
    }

    private func write(_ data: Data, to destination: Destination) throws {
        switch destination {
        case .standardOutput: try FileOutput.writeToStandardOutput(data)
        case .file(let path): try FileOutput.writeAtomically(data, to: path)
        }
    }
}
