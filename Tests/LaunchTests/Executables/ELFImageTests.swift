import Foundation
import Launch
@testable import LaunchCore
import TestSupport
import Testing

/// The hand-written ELF reader and the loader-like library search that
/// decide which directories a launched program may load code from.
@Suite struct ELFImageTests {
    /// `readelf -d`'s NEEDED and RUNPATH/RPATH, as an independent oracle
    /// (nil where binutils is not installed).
    static func readelf(_ path: String) throws -> (needed: [String], runPath: [String], rPath: [String])? {
        let tool = URL(fileURLWithPath: "/usr/bin/readelf")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { return nil }
        let result = try ChildProcess.run(tool, ["-d", "-W", path])
        func values(_ kind: String) -> [String] {
            result.output.split(separator: "\n").filter { $0.contains("(\(kind))") }.compactMap { line in
                guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        }
        let split = { (entries: [String]) in entries.flatMap { $0.split(separator: ":").map(String.init) } }
        return (values("NEEDED"), split(values("RUNPATH")), split(values("RPATH")))
    }

    @Test("/bin/sh needs libc and names its loader")
    func shell() throws {
        let image = try ELFImage(contentsOf: "/bin/sh")
        #expect(image.needed.contains("libc.so.6"))
        #expect(image.interpreter?.hasPrefix("/lib") == true)
        #expect(image.is64Bit == (MemoryLayout<Int>.size == 8))
        if let oracle = try Self.readelf("/bin/sh") {
            #expect(image.needed == oracle.needed)
            #expect(image.runPath == oracle.runPath)
            #expect(image.rPath == oracle.rPath)
        }
        let directories = LibrarySearch.directories(for: "/bin/sh")
        #expect(directories.contains { FileManager.default.fileExists(atPath: $0 + "/libc.so.6") })
    }

    @Test("the escape probe's needed libraries and run paths, as readelf reads them")
    func escapeProbe() throws {
        let probe = try #require(BuiltProgram.escapeProbe, "escape-probe was not built")
        let image = try ELFImage(contentsOf: probe.path)
        #expect(image.needed.contains("libswiftCore.so"))
        #expect(image.needed.contains("libc.so.6"))
        #expect(!(image.runPath + image.rPath).isEmpty, "a SwiftPM program names where its runtime is")
        if let oracle = try Self.readelf(probe.path) {
            #expect(image.needed == oracle.needed)
            #expect(image.runPath == oracle.runPath)
            #expect(image.rPath == oracle.rPath)
        }
        // Every library it needs (the debug-only SwiftOnoneSupport included)
        // is in a directory the search found, so a launch allows it.
        let directories = LibrarySearch.directories(for: probe.path)
        for name in image.needed {
            #expect(directories.contains { FileManager.default.fileExists(atPath: $0 + "/" + name) }, "\(name) not found")
        }
        let rules = SystemPaths.libraryRules(for: probe.path)
        #expect(rules.allSatisfy { $0.access == .readExecute })
    }

    @Test("excluded directories are left out, also when reached through a link")
    func exclusions() throws {
        let probe = try #require(BuiltProgram.escapeProbe, "escape-probe was not built")
        let runtime = try #require(LibrarySearch.directories(for: probe.path).first {
            FileManager.default.fileExists(atPath: $0 + "/libswiftCore.so")
        })
        let directory = try TemporaryDirectory("elf")
        let link = directory.url.appendingPathComponent("runtime")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: runtime)
        let found = LibrarySearch.directories(for: probe.path, libraryPath: link.path)
        #expect(found.contains(link.path), "LD_LIBRARY_PATH is searched first")
        let fenced = LibrarySearch.directories(for: probe.path, libraryPath: link.path, excluding: [runtime])
        #expect(!fenced.contains(runtime))
        #expect(!fenced.contains(link.path))
        #expect(fenced.contains { FileManager.default.fileExists(atPath: $0 + "/libc.so.6") })
    }

    @Test("$ORIGIN expands to the object's directory")
    func origin() {
        #expect(LibrarySearch.expandOrigin("$ORIGIN/../lib", origin: "/opt/app") == "/opt/app/../lib")
        #expect(LibrarySearch.expandOrigin("${ORIGIN}:x", origin: "/a") == "/a:x")
        #expect(LibrarySearch.expandOrigin("$LIB/x", origin: "/a") == "$LIB/x")
    }

    @Test("a script is searched through its interpreter")
    func script() throws {
        let directory = try TemporaryDirectory("elf")
        let script = try directory.write(Data("#!/bin/sh\nexit 0\n".utf8), to: "run.sh")
        let directories = LibrarySearch.directories(for: script.path)
        #expect(directories.contains { FileManager.default.fileExists(atPath: $0 + "/libc.so.6") })
        #expect(!directories.contains(directory.url.path), "the program's own directory is never added")
    }

    @Test("malformed ELF bytes give a typed error, never a crash")
    func malformed() throws {
        func code(_ bytes: [UInt8]) -> ELFError.Code? {
            do { _ = try ELFImage(bytes: bytes); return nil } catch { return error.code }
        }
        #expect(code([]) == .notELF)
        #expect(code(Array("#!/bin/sh\n".utf8)) == .notELF)
        #expect(code([0x7f, 0x45, 0x4c, 0x46]) == .truncated)
        #expect(code([0x7f, 0x45, 0x4c, 0x46, 9, 1, 1] + [UInt8](repeating: 0, count: 57)) == .unsupported)
        let shell = Array(try Data(contentsOf: URL(fileURLWithPath: "/bin/sh")))
        // The program header table moved past the end.
        var far = shell
        for index in 32..<40 { far[index] = 0xff }
        #expect(code(far) == .truncated)
        // 65535 program headers of 1 byte each.
        var tiny = shell
        tiny[54] = 1; tiny[55] = 0; tiny[56] = 0xff; tiny[57] = 0xff
        #expect(code(tiny) == .malformed)
        // Cut anywhere, and flipped anywhere: an image or an error.
        // Deterministic positions (multiples of primes), so a failure reproduces.
        let headerBytes = min(shell.count, 8192)
        for round in 0..<300 {
            _ = code(Array(shell.prefix(round * 7919 % (shell.count + 1))))
            var flipped = shell
            for change in 0..<8 {
                flipped[(round * 104_729 + change * 1_009) % headerBytes] = UInt8(truncatingIfNeeded: round * 31 + change * 97)
            }
            _ = code(flipped)
        }
    }

    @Test("an unreadable file is a typed error")
    func unreadable() {
        let error = #expect(throws: ELFError.self) { try ELFImage(contentsOf: "/nonexistent/program") }
        #expect(error?.code == .unreadable)
        #expect(LibrarySearch.directories(for: "/nonexistent/program").isEmpty)
    }
}
