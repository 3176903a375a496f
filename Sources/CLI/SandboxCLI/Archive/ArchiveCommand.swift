import ArgumentParser
import Foundation
import KeyedArchive

/// `sandbox archive`: shows the contents of NSKeyedArchiver archives.
struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Show the object graph of NSKeyedArchiver archives (binary or XML).",
        discussion: """
            print shows the resolved object tree: each object with its class, Foundation \
            objects as their values (strings quoted, data as bytes, dates in ISO 8601), other \
            classes as their coder keys. An object referenced more than once is numbered \
            (#n is its index in $objects) and later references read "-> #n (shared)"; a \
            reference back to an object that contains it reads "-> #n (cycle)".

            json prints a stable JSON form: {"top": {key: value}} with sorted keys, where an \
            object is {"$id": n, "$class": name, "$classes": [...], "$value": …} for Foundation \
            classes or {…, "fields": {…}, "unkeyed": […]} for others, and a second reference \
            to it is {"$ref": n}. Data is {"$data": base64}, dates {"$date": ISO 8601}; integers \
            and reals stay apart (1 versus 1.0). With --raw it prints the archive as stored: \
            $archiver, $version, $top and the plain $objects table, UIDs as {"CF$UID": n}.

            Exit status: 0 on success; 1 if a file is not a readable archive (the error is \
            printed as "<file>: <reason>"); 64 for a usage error.
            """,
        subcommands: [ArchivePrintCommand.self, ArchiveJSONCommand.self]
    )
}

/// `sandbox archive print`.
struct ArchivePrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print", abstract: "Print the resolved object tree of an archive.")

    @Argument(help: ArgumentHelp("The archive to read (- for standard input).", valueName: "file"))
    var file: String

    func run() throws {
        try ArchiveCommandRunner.run(file) { unarchiver in
            var printer = ArchiveTreePrinter(unarchiver: unarchiver)
            return Data(try printer.render().utf8)
        }
    }
}

/// `sandbox archive json`.
struct ArchiveJSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json", abstract: "Print an archive as stable JSON.")

    @Argument(help: ArgumentHelp("The archive to read (- for standard input).", valueName: "file"))
    var file: String

    @Flag(help: "Print the plain $objects table instead of the resolved tree.")
    var raw = false

    func run() throws {
        try ArchiveCommandRunner.run(file) { unarchiver in
            try ArchiveJSON.render(unarchiver, raw: raw)
        }
    }
}

/// Reads the archive, runs the renderer and reports failures as `file: reason`, status 1.
enum ArchiveCommandRunner {
    static func run(_ path: String, _ render: (KeyedUnarchiver) throws -> Data) throws {
        do {
            let unarchiver = try KeyedUnarchiver(data: FileInput.read(path))
            ProcessLifetime.keep(unarchiver)
            try FileOutput.writeToStandardOutput(render(unarchiver))
        } catch {
            FileOutput.writeToStandardError("\(path == "-" ? "<stdin>" : path): \(error)\n")
            throw ExitCode.failure
        }
    }
}
