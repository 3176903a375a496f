import FileSystem
import Foundation
import SystemPackage
import Testing

/// Sweeping the temporary files of writers killed midway.
@Suite struct StaleTemporariesTests {
    @Test func onlyOldTemporariesAreRemoved() throws {
        let scratch = try Scratch()
        let now = Date()
        let old = Int64((now.timeIntervalSince1970 - 3600) * 1_000_000_000)
        try scratch.write("dead writer", to: ".sb-dead.tmp")
        try scratch.directory.setModificationTime(of: ".sb-dead.tmp", nanoseconds: old)
        try scratch.write("live writer", to: ".sb-live.tmp")
        try scratch.write("not a temporary", to: "old.plist")
        try scratch.directory.setModificationTime(of: "old.plist", nanoseconds: old)
        try scratch.directory.makeDirectory(".sb-folder.tmp")
        try scratch.directory.setModificationTime(of: ".sb-folder.tmp", nanoseconds: old)

        let removed = try scratch.directory.removeStaleTemporaries(now: now)

        #expect(removed == [".sb-dead.tmp"])
        #expect(try scratch.read(".sb-live.tmp") == "live writer")
        #expect(try scratch.read("old.plist") == "not a temporary")
        #expect(try scratch.directory.status(of: ".sb-folder.tmp").isDirectory)
    }

    @Test func theAgeIsConfigurable() throws {
        let scratch = try Scratch()
        try scratch.write("x", to: ".sb-recent.tmp")
        #expect(try scratch.directory.removeStaleTemporaries(olderThan: 60).isEmpty)
        #expect(try scratch.directory.removeStaleTemporaries(olderThan: -60) == [".sb-recent.tmp"])
    }
}
