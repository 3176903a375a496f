import Foundation
import Preferences
import PropertyList
import Testing

/// A burst of sets is one write; synchronize and the lifecycle hooks flush.
@Suite struct CoalescingTests {
    @Test func aBurstOfSetsIsOneWrite() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open(coalescingDelay: 0.2)
        for index in 0..<1_000 { prefs.set(index, forKey: "key \(index % 100)") }
        #expect(prefs.statistics.fileWrites == 0)
        #expect(eventually { prefs.statistics.fileWrites == 1 })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(prefs.statistics.fileWrites == 1)
        #expect(try fixture.fileContents()?.dictionaryValue?.count == 100)
    }

    @Test func synchronizeWritesOnceAndOnlyWhenSomethingChanged() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        for index in 0..<200 { prefs.set("value \(index)", forKey: "key \(index)") }
        try prefs.synchronize()
        try prefs.synchronize()
        #expect(prefs.statistics.fileWrites == 1)
        prefs.set("changed", forKey: "key 0")
        try prefs.synchronize()
        #expect(prefs.statistics.fileWrites == 2)
    }

    @Test func bytesWrittenPerFlushAreTheBinaryFileSize() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        for index in 0..<200 { prefs.set("value \(index)", forKey: "key \(index)") }
        try prefs.synchronize()
        let size = try #require(FileManager.default.attributesOfItem(atPath: fixture.domainFile.path)[.size] as? Int)
        #expect(prefs.statistics.bytesWritten == UInt64(size))
        let bytes = try Data(contentsOf: fixture.domainFile)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
    }

    @Test func enteringTheBackgroundFlushes() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        prefs.set(true, forKey: "TermsAccepted")
        #expect(try fixture.fileContents() == nil)
        try prefs.applicationDidEnterBackground()
        #expect(try fixture.fileContents() == ["TermsAccepted": true])
        #expect(!prefs.hasUnflushedChanges)
    }

    @Test func terminatingFlushes() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        prefs.set("bye", forKey: "Last")
        try prefs.applicationWillTerminate()
        #expect(try fixture.fileContents() == ["Last": "bye"])
    }

    @Test func releasingTheLastStoreFlushes() throws {
        let fixture = try PreferencesFixture()
        do {
            let prefs = try fixture.open()
            prefs.set(1, forKey: "kept")
        }
        #expect(try fixture.fileContents() == ["kept": 1])
    }

    @Test func storesOfOneFileInOneProcessShareTheirValues() throws {
        let fixture = try PreferencesFixture()
        let first = try fixture.open(shared: true)
        let second = try fixture.open(shared: true)
        first.set("x", forKey: "k")
        #expect(second.string(forKey: "k") == "x")
        try second.synchronize()
        #expect(try fixture.fileContents() == ["k": "x"])
    }
}
