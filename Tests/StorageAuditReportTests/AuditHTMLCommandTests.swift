import Device
import FileSystem
import Foundation
import PropertyList
import TestSupport
import Testing

/// `sandbox audit --html FILE` on a real device whose app has hostile file
/// names, run as the built executable.
@Suite struct AuditHTMLCommandTests {
    static let bundleID = "com.example.hostile"

    /// A device with one app whose Caches and Documents hold hostile names,
    /// one of them not UTF-8 (made by the shell, as no Swift string can).
    static func makeDevice(in temp: TemporaryDirectory) throws -> Device {
        let device = try Device.create(at: temp.file("device"), name: "html <device> & \"co\"")
        let bundle = temp.file("App.app")
        try FileSystemPaths.makeDirectories(atPath: bundle.path)
        let info: PropertyListValue = ["CFBundleIdentifier": .string(bundleID), "CFBundleVersion": .string("1"),
                                       "CFBundleExecutable": .string("App")]
        try FileSystemPaths.writeAtomically(try info.encoded(as: .xml), toPath: bundle.appendingPathComponent("Info.plist").path)
        try FileSystemPaths.writeAtomically(Data("#!/bin/sh\n".utf8), toPath: bundle.appendingPathComponent("App").path)
        let container = try device.install(bundleAt: bundle).dataContainer()
        try container.writeAtomically(Data(repeating: 1, count: 50_000), to: "Library/Caches/<script>alert(\"x\").png")
        try container.writeAtomically(Data(repeating: 2, count: 9_000), to: "Library/Caches/R&D;x &amp; ]]>.dat")
        try container.writeAtomically(Data(repeating: 3, count: 70_000), to: "Documents/notes.txt")
        let made = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                        ["-c", "printf 'abc' > \"$(printf 'Library/Caches/bad\\377\\376name.bin')\""],
                                        in: container.root)
        try #require(made.status == 0, "\(made.standardError)")
        return device
    }

    static func run(_ arguments: [String], in temp: TemporaryDirectory) throws -> ChildProcess.Result {
        let executable = try #require(BuiltExecutable.locate("sandbox"), "the sandbox executable was not built")
        return try ChildProcess.run(executable, ["audit", "--device", temp.path("device")] + arguments, in: temp.url)
    }

    @Test func writesTheReportBesideTheText() throws {
        let temp = try TemporaryDirectory("audit-html")
        _ = try Self.makeDevice(in: temp)
        let result = try Self.run(["--html", "report.html"], in: temp)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains(Self.bundleID) && result.output.contains("iCloud backup"), "the text is still printed")
        let report = temp.file("report.html")
        #expect(result.standardError.contains("wrote the HTML report"))
        #expect(result.standardError.contains(report.standardizedFileURL.path))
        let first = try temp.read("report.html")

        // Again, with --json: the JSON on standard output, the same page in the file.
        let again = try Self.run(["--json", "--html", "report.html"], in: temp)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.output.hasPrefix("{"))
        #expect(try temp.read("report.html") == first, "the same tree gives the same page, byte for byte")

        let page = String(decoding: first, as: UTF8.self)
        #expect(!page.lowercased().contains("<script"))
        let parsed = try ReportOracle.parse(report)
        #expect(parsed.xml.error == nil && parsed.html.error == nil, "\(parsed.xml.error ?? "") \(parsed.html.error ?? "")")
        let paths = parsed.xml.code ?? []
        #expect(paths.contains("Library/Caches/<script>alert(\"x\").png"), "\(paths)")
        #expect(paths.contains("Library/Caches/R&D;x &amp; ]]>.dat"), "\(paths)")
        // The name that is not UTF-8 reaches the page, if the walk reports
        // it, as U+FFFD (ReportFixture.invalidUTF8Name checks that case).
        #expect(paths.allSatisfy { !$0.hasPrefix("Library/Caches/bad") || $0.hasSuffix("name.bin") }, "\(paths)")
        #expect(parsed.xml.elements?["script"] == nil)

        if SystemTool.locate("xmllint") != nil || SystemTool.isCI {
            let problems = try Xmllint.htmlProblems(report)
            #expect(problems.isEmpty, "xmllint --html: \(problems)")
            let xml = try Xmllint.xmlOutput(report)
            #expect(xml.status == 0 && xml.output.isEmpty, "xmllint (XML): \(xml.output)")
        }
    }

    @Test func anUnwritablePathFailsWithAMessage() throws {
        let temp = try TemporaryDirectory("audit-html-fail")
        _ = try Self.makeDevice(in: temp)
        let result = try Self.run(["--html", temp.path("missing/dir/report.html")], in: temp)
        #expect(result.status != 0)
        #expect(result.standardError.contains("report.html"), "\(result.standardError)")
        let help = try ChildProcess.run(try #require(BuiltExecutable.locate("sandbox")), ["audit", "--help"])
        #expect(help.output.contains("--html"))
    }
}
