import Foundation
import Preferences
import PropertyList
import Testing
import TestSupport

/// Real processes writing one domain at once, and one killed mid-flush.
@Suite(.serialized) struct MultiProcessTests {
    @Test func fourProcessesSettingAThousandKeysEachLoseNone() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        prefs.set("kept", forKey: "before")
        try prefs.synchronize()

        let writers = try (0..<4).map { writer in
            // Two writers go through the container, two name the file by
            // path (as `sandbox defaults` may): both take the same lock.
            try StressWriter.start(["set-keys"]
                + (writer.isMultiple(of: 2) ? fixture.writerDomainArguments : ["--file", fixture.domainFile.path])
                + ["--prefix", "w\(writer)", "--count", "1000", "--every", "25"])
        }
        let exits = writers.map { $0.waitForExit() }
        #expect(exits.allSatisfy { $0.status == 0 })

        let contents = try #require(try fixture.fileContents()?.dictionaryValue)
        #expect(contents.count == 4_001)
        var missing: [String] = []
        for writer in 0..<4 {
            for index in 0..<1000 where contents["w\(writer)-\(index)"] != .string("w\(writer) value \(index)") {
                missing.append("w\(writer)-\(index)")
            }
        }
        #expect(missing.isEmpty, "lost \(missing.count) keys, first \(missing.prefix(5))")
        #expect(contents["before"] == "kept")
    }

    @Test func aProcessKilledDuringFlushLeavesTheOldOrTheNewFile() throws {
        let fixture = try PreferencesFixture()
        let keys = 2_000
        for round in 0..<8 {
            let output = Pipe()
            let writer = try StressWriter.start(
                ["flush-loop", "--manual"] + fixture.writerDomainArguments + ["--keys", "\(keys)", "--padding", "100"], output: output)
            // Wait for the first complete write, then kill at a varying point of a later one.
            _ = output.fileHandleForReading.availableData
            Thread.sleep(forTimeInterval: 0.005 + Double(round) * 0.013)
            TestPlatform.killImmediately(writer.processIdentifier)
            #expect(writer.waitForExit().wasSignalled)

            let contents = try #require(try fixture.fileContents()?.dictionaryValue, "round \(round): unreadable file")
            #expect(contents.count == keys, "round \(round)")
            // Every key of one file comes from one flush: one generation.
            let generations = Set(contents.values.compactMap { $0.stringValue?.split(separator: " ").first })
            #expect(generations.count == 1, "round \(round): a torn file mixes generations \(generations)")
        }
    }
}
