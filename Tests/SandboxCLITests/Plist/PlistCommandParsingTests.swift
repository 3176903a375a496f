import ArgumentParser
import Foundation
import Testing
@testable import SandboxCLI
import PropertyList

/// The argument grammar, checked in-process: plutil's single-dash options
/// parsed by ArgumentParser and resolved into a ``PlistInvocation``.
@Suite struct PlistCommandParsingTests {
    private func invocation(_ arguments: [String]) throws -> PlistInvocation {
        try PlistCommand.parse(arguments).invocation()
    }

    /// The exit code the arguments lead to before any file is touched, or nil if they are valid.
    private func usageExitCode(_ arguments: [String]) -> Int32? {
        do {
            _ = try invocation(arguments)
            return nil
        } catch {
            return PlistCommand.exitCode(for: error).rawValue
        }
    }

    @Test func lintIsTheDefault() throws {
        #expect(try invocation(["a.plist", "b.plist"]) == PlistInvocation(verb: .lint, paths: ["a.plist", "b.plist"]))
        #expect(try invocation(["-lint", "-s", "a.plist"]).silent)
    }

    @Test func readsPlutilStyleCommands() throws {
        #expect(try invocation(["-p", "f"]).verb == .print)
        #expect(try invocation(["-convert", "json", "-r", "f"]).verb == .convert(.json))
        #expect(try invocation(["-convert", "openStep", "f"]).verb == .convert(.openstep))
        #expect(try invocation(["-create", "binary1", "f"]).verb == .create(.binary1))
        #expect(try invocation(["-remove", "a.0", "f"]).verb == .edit(PlistKeyPath(parsing: "a.0"), .remove))
        #expect(try invocation(["-type", "a", "-expect", "array", "f"]).verb
            == .type(PlistKeyPath(parsing: "a"), expect: .array))
    }

    @Test func extractTakesTheFormatAsItsNextArgument() throws {
        let resolved = try invocation(["-extract", "a.b", "raw", "-expect", "string", "f1", "f2"])
        #expect(resolved.verb == .extract(PlistKeyPath(parsing: "a.b"), .raw, expect: .string))
        #expect(resolved.paths == ["f1", "f2"])
        #expect(try invocation(["-extract", "k", "xml1", "-o", "-", "f"]).verb
            == .extract(PlistKeyPath(parsing: "k"), .file(.xml1), expect: nil))
    }

    @Test func parsesInsertedValues() throws {
        func value(_ arguments: [String]) throws -> PlistEdit? {
            guard case .edit(_, let edit) = try invocation(["-insert", "k"] + arguments + ["f"]).verb else { return nil }
            return edit
        }
        #expect(try value(["-bool", "YES"]) == .insert(true))
        #expect(try value(["-bool", "no"]) == .insert(false))
        #expect(try value(["-integer", "-5"]) == .insert(-5))
        #expect(try value(["-integer", "18446744073709551615"]) == .insert(.integer(PropertyListInteger(UInt64.max))))
        #expect(try value(["-float", "-2.5"]) == .insert(-2.5))
        #expect(try value(["-string", "-looks-like-an-option"]) == .insert("-looks-like-an-option"))
        #expect(try value(["-date", "2004-10-26T10:33:33Z"]) == .insert(.date(Date(timeIntervalSince1970: 1_098_786_813))))
        #expect(try value(["-data", "aGk="]) == .insert(.data(Data("hi".utf8))))
        #expect(try value(["-array"]) == .insert([]))
        #expect(try value(["-dictionary", "-append"]) == .append([:]))
        guard case .edit(_, let replacement) = try invocation(["-replace", "k", "-string", "v", "f"]).verb else {
            Issue.record("-replace is not an edit")
            return
        }
        #expect(replacement == .replace("v"))
    }

    @Test func keepsOutputOptions() throws {
        let resolved = try invocation(["-convert", "binary1", "-e", "bin", "-r", "-n", "-s", "a", "b"])
        #expect(resolved.outputExtension == "bin")
        #expect(resolved.readable && !resolved.terminatingNewline && resolved.silent)
        #expect(try invocation(["-convert", "xml1", "-o", "-", "a", "b"]).outputPath == "-")
    }

    @Test func doubleDashMakesEverythingAFile() throws {
        #expect(try invocation(["-s", "--", "-p", "-"]).paths == ["-p", "-"])
    }

    @Test(arguments: [
        [],                                               // no files
        ["-lint", "-p", "f"],                             // two commands
        ["-convert", "swift", "f"],                       // unsupported format
        ["-convert", "json"],                             // no files
        ["-extract", "k"],                                // no format
        ["-extract", "k", "plain", "f"],                  // unknown format
        ["-insert", "k", "f"],                            // no value
        ["-insert", "k", "-string", "a", "-bool", "1", "f"], // two values
        ["-insert", "k", "-bool", "maybe", "f"],
        ["-insert", "k", "-integer", "12x", "f"],
        ["-insert", "k", "-integer", "18446744073709551616", "f"],
        ["-insert", "k", "-float", "one", "f"],
        ["-insert", "k", "-date", "yesterday", "f"],
        ["-insert", "k", "-data", "!!!", "f"],
        ["-replace", "k", "-array", "-append", "f"],      // -append is for -insert
        ["-string", "v", "f"],                            // a value without -insert
        ["-expect", "string", "f"],
        ["-o", "out", "f"],                               // -o with -lint
        ["-p", "-e", "txt", "f"],
        ["-create", "xml1", "-o", "-", "f"],
        ["-convert", "json", "-o", "out", "a", "b"],      // -o file with many files
        ["-convert", "json", "-o", "out", "-e", "x", "a"],
        ["-convert", "json", "-e", "a/b", "f"],
        ["-frobnicate", "f"],                             // unknown option
        ["-type", "k", "-expect", "thing", "f"],
    ])
    func usageErrorsExitWith64(_ arguments: [String]) {
        #expect(usageExitCode(arguments) == 64)
    }
}
