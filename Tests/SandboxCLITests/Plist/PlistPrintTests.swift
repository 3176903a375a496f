import Foundation
import TestSupport
import Testing

@Suite struct PlistPrintTests {
    @Test func printsForPeople() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "data.plist")
        let result = try SandboxProcess.run(["-p", "data.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(result.output == """
            {
              "Blob" => {length = 4, bytes = 0xdeadbeef}
              "com.example.key" => "dotted"
              "Count" => 3
              "Enabled" => true
              "Items" => [
                0 => "apple"
                1 => "pear"
              ]
              "Name" => "Possessions"
              "Nested" => {
                "Deeper" => {
                  "Value" => 42
                }
              }
              "Ratio" => 0.5
              "When" => 2004-10-26 10:33:33 +0000
            }

            """)
    }

    @Test func printsKeyedArchiveUIDs() throws {
        let directory = try TemporaryDirectory()
        let path = SandboxProcess.fixtures.appendingPathComponent("keyed_archive/cpython_TESTDATA_keyed_archive.bplist").path
        let result = try SandboxProcess.run(["-p", path, "-"], input: PlistSamples.binary(["n": 1]), in: directory.url)
        #expect(result.status == 0)
        #expect(result.output.contains("\"root\" => <CFKeyedArchiverUID>{value = 1}"))
        #expect(result.output.hasSuffix("}\n{\n  \"n\" => 1\n}\n"))
    }

    @Test func refusesDatesFoundationCannotFormat() throws {
        // CF accepts these binary dates and Foundation's Date.description traps
        // on NaN; the reader refuses them, one error line per file.
        let directory = try TemporaryDirectory()
        let paths = ["36_too_large_datetime_datetime_overflow", "38_invalid_datetime_infinity", "39_invalid_datetime_nan"]
            .map { SandboxProcess.fixtures.appendingPathComponent("malformed/cpython_invalid_\($0).bplist").path }
        let result = try SandboxProcess.run(["-p"] + paths, in: directory.url)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        let lines = result.errorLines
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains("date") && $0.contains("(at byte 8)") })
    }
}
