@testable import Device
import Foundation
import KeyedArchive
import PropertyList
import Testing

@Suite struct StateRestorationTests {
    @Test func stateSavedAtBackgroundIsHandedBackAtTheNextLaunch() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let first = RecordingDelegate()
        first.stateToSave = ["SelectedNote": "n-42", "Scroll": 120]
        let run = try fixture.device.run("com.example.notes", delegate: first)
        try run.launch()
        #expect(first.launchOptions?.restoredState == nil)
        try run.enterBackground()
        try run.suspend()
        try run.terminate()  // killed while suspended: no callbacks, state from the background save

        let second = RecordingDelegate()
        let again = try fixture.device.run("com.example.notes", delegate: second)
        try again.launch()
        #expect(second.launchOptions?.restoredState == ["SelectedNote": "n-42", "Scroll": 120])
        let context = try #require(again.context)
        #expect(context.container.fileExists(context.stateRestoration.relativePath))
        #expect(context.stateRestoration.relativePath.hasPrefix("Library/Saved Application State/com.example.notes.savedState/"))
        try again.terminate()
    }

    @Test func stateSavedAtTerminateReplacesTheEarlierOne() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let delegate = RecordingDelegate()
        let run = try fixture.device.run("com.example.notes", delegate: delegate)
        delegate.stateToSave = "background"
        try run.launch()
        try run.enterBackground()
        delegate.stateToSave = "terminate"
        try run.terminate()
        let next = RecordingDelegate()
        let again = try fixture.device.run("com.example.notes", delegate: next)
        try again.launch()
        #expect(next.launchOptions?.restoredState == "terminate")
        try again.terminate()
    }

    @Test func keyedArchivesRoundTripAndSurviveAnUpdate() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        let restoration = StateRestoration(container: try app.dataContainer(), bundleID: app.bundleID)
        try restoration.save(archiving: ["tab": "inbox"] as [String: String])
        let updated = try fixture.device.update(bundleAt: try fixture.bundle(version: "2"))
        let after = StateRestoration(container: try updated.dataContainer(), bundleID: app.bundleID)
        #expect(try after.restoredObject([String: String].self) == ["tab": "inbox"])
        try after.discard()
        #expect(try after.restoredState() == nil)
    }
}
