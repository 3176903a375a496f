import Container
import Device
import Foundation
import KeyedArchive
import Keychain
import MobileBackup
import PropertyList

/// Steps 5–9 of the demo: what the system does to the app's files later in
/// its life.
extension DemoScript {
    mutating func backUp(_ device: Device) throws {
        narrator.begin("Back up the device (an encrypted iOS backup)")
        let summary = try device.backUp(to: backupURL, password: backupPassword)
        narrator.say("\(summary.files) files, \(ByteCountText.format(UInt64(max(0, summary.bytesCopied)))) copied to \(backupURL.path)")
        let reader = try BackupReader(directory: backupURL, password: backupPassword)
        let domain = "AppDomain-" + PossessionsApp.bundleID
        let paths = Set(reader.records(inDomain: domain).map(\.relativePath))
        narrator.say("\(domain): \(paths.filter { !$0.isEmpty }.sorted().joined(separator: ", "))")
        try narrator.check(paths.contains(PossessionsApp.archivePath)
                           && paths.contains("Library/Preferences/\(PossessionsApp.bundleID).plist"),
                           "Documents and Library/Preferences are in the backup")
        try narrator.check(!paths.contains { $0.hasPrefix("Library/Caches/") || $0.hasPrefix("tmp/") || $0.hasSuffix(".app") },
                           "Caches, tmp and the bundle are not")
        try narrator.check(reader.domains.contains("KeychainDomain"), "the keychain travels in KeychainDomain, encrypted")
        let again = try device.backUp(to: backupURL, password: backupPassword)
        try narrator.check(again.payloadsCopied == 0, "a second backup with nothing changed copies nothing (incremental)")
    }

    mutating func purge(_ device: Device, running run: AppRun) throws {
        narrator.begin("The disk runs low: the system purges caches")
        let container = try run.context().container
        let spared = try device.purge()
        try narrator.check(!try container.contentsOfDirectory(PossessionsApp.imageDirectory).isEmpty,
                           "Possessions is still running (suspended), so its Caches are spared (freed \(ByteCountText.format(spared.bytesFreed)) elsewhere)")
        try run.terminate()
        narrator.say("Possessions terminated; state: \(run.state)")
        let report = try device.purge()
        narrator.say("purge freed \(ByteCountText.format(report.bytesFreed)) in \(report.filesRemoved) files")
        narrator.show(try ContainerTree(container).lines())
        try narrator.check(!container.fileExists(PossessionsApp.imageDirectory + "/" + app.possessions[0].imageKey + ".png")
                           && (try container.contentsOfDirectory("tmp")).isEmpty,
                           "Library/Caches and tmp of the stopped app were emptied")
        try narrator.check(container.fileExists(PossessionsApp.archivePath), "Documents was not touched")
    }

    mutating func relaunch(on device: Device) throws {
        narrator.begin("Relaunch")
        let run = try device.run(PossessionsApp.bundleID, delegate: app)
        try run.launch()
        try run.activate()
        app.events.forEach(narrator.say)
        try narrator.check(app.rebuiltImages.count == app.possessions.count, "the app noticed its purged cache and rebuilt it")
        try run.terminate()
    }

    mutating func update(_ device: Device) throws {
        narrator.begin("Update to Possessions 2.0")
        let before = try device.app(PossessionsApp.bundleID)
        let archive = try before.dataContainer().read(PossessionsApp.archivePath)
        let bundle = try PossessionsBundle.make(version: "2.0", in: stagingURL)
        let updated = try device.update(bundleAt: bundle)
        narrator.say("version \(before.version) → \(updated.version)")
        narrator.say("new data container: \(updated.dataContainerURL.path)")
        let container = try updated.dataContainer()
        narrator.show(try ContainerTree(container).lines())
        try narrator.check(try container.read(PossessionsApp.archivePath) == archive, "Documents/possessions.data moved over unchanged")
        try narrator.check(try updated.preferences().bool(forKey: PossessionsApp.termsKey), "the accepted terms (Library/Preferences) moved over")
        let items = try updated.keychainClient(on: device).query(KeychainQuery(.genericPassword, KeychainAttributes(service: PossessionsApp.keychainService), limit: .all))
        try narrator.check(items.count == 2, "the keychain was not touched by the update")
    }

    mutating func restoreOntoSecondDevice() throws {
        narrator.begin("Restore the backup onto a second device")
        let second = try Device.create(at: secondDeviceURL, name: "Demo iPhone 2")
        try second.unlock()
        _ = try second.install(bundleAt: PossessionsBundle.make(version: "2.0", in: stagingURL))
        let report = try second.restore(from: backupURL, password: backupPassword)
        narrator.say("restored \(report.filesRestored) files onto \(second.identity.name) (\(second.identity.udid))")
        let installed = try second.app(PossessionsApp.bundleID)
        let container = try installed.dataContainer()
        narrator.show(try ContainerTree(container).lines())
        let possessions = try KeyedUnarchiver.unarchive([Possession].self, from: container.read(PossessionsApp.archivePath))
        try narrator.check(possessions == app.possessions, "the \(possessions.count) possessions are intact")
        try narrator.check(try installed.preferences().bool(forKey: PossessionsApp.termsKey), "the terms stay accepted")
        try narrator.check((try container.contentsOfDirectory("Library/Caches")).isEmpty, "Caches starts empty after a restore")
        let keychain = installed.keychainClient(on: second)
        let accounts = try keychain.query(KeychainQuery(.genericPassword, KeychainAttributes(service: PossessionsApp.keychainService),
                                                        limit: .all)).compactMap(\.attributes.account)
        try narrator.check(accounts.contains("sync-token"), "sync-token came back (password-protected backup, any device)")
        try narrator.check(!accounts.contains("device-key"), "device-key (ThisDeviceOnly) did not leave the first device")
    }
}
