import Foundation
import Preferences
import PropertyList
import Testing

/// `changes()` reports this process's changes and other processes' writes.
@Suite struct ObservationTests {
    @Test func aSetInThisProcessIsReported() async throws {
        let prefs = try PreferencesFixture().open()
        let changes = prefs.changes(forKeys: ["Theme"])
        let task = Task { await firstElement(of: changes) { _ in true } }
        try await Task.sleep(for: .milliseconds(20))
        prefs.set("other", forKey: "Unwatched")
        prefs.set("dark", forKey: "Theme")
        let change = await task.value
        #expect(change == PreferencesChange(keys: ["Theme"], origin: .thisProcess))
    }

    @Test func settingTheSameValueAgainIsNotAChange() async throws {
        let prefs = try PreferencesFixture().open()
        prefs.set(1, forKey: "k")
        let changes = prefs.changes()
        let task = Task { await firstElement(of: changes) { _ in true } }
        try await Task.sleep(for: .milliseconds(20))
        prefs.set(1, forKey: "k")
        prefs.set(2, forKey: "other")
        #expect(await task.value?.keys == ["other"])
    }

    @Test func registrationIsReported() async throws {
        let prefs = try PreferencesFixture().open()
        let changes = prefs.changes()
        let task = Task { await firstElement(of: changes) { _ in true } }
        try await Task.sleep(for: .milliseconds(20))
        prefs.register(defaults: ["Size": 12])
        #expect(await task.value?.keys == ["Size"])
    }

    @Test func anotherStoresWriteIsReportedAsAnotherProcess() async throws {
        let fixture = try PreferencesFixture()
        let watcher = try fixture.open()
        let writer = try fixture.open()
        let changes = watcher.changes()
        let task = Task { await firstElement(of: changes) { $0.origin == .anotherProcess } }
        try await Task.sleep(for: .milliseconds(50))
        writer.set("from writer", forKey: "Remote")
        try writer.synchronize()
        let change = await task.value
        #expect(change?.keys == ["Remote"])
        #expect(watcher.string(forKey: "Remote") == "from writer")
    }

    @Test func anotherProcesssWriteIsReported() async throws {
        let fixture = try PreferencesFixture()
        let watcher = try fixture.open()
        let changes = watcher.changes()
        let task = Task { await firstElement(of: changes, timeout: 20) { $0.origin == .anotherProcess } }
        try await Task.sleep(for: .milliseconds(50))
        let status = try StressWriter.run(
            ["set-keys"] + fixture.writerDomainArguments + ["--prefix", "child", "--count", "3", "--every", "0"])
        #expect(status == 0)
        let change = await task.value
        #expect(change?.keys == ["child-0", "child-1", "child-2"])
        #expect(watcher.string(forKey: "child-2") == "child value 2")
    }

    @Test func observingStopsWhenTheConsumerGoesAway() async throws {
        let prefs = try PreferencesFixture().open()
        let task = Task {
            for await _ in prefs.changes() {}
        }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        _ = await task.value
        prefs.set(1, forKey: "after")
        #expect(prefs.integer(forKey: "after") == 1)
    }
}
