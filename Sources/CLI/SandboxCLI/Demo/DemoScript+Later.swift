import CacheManifest
import Container
import Device
import Foundation
import KeyedArchive
import Launch
import Keychain
import MobileBackup
import PropertyList
import Store

/// Steps 5–9 of the demo: what the system does to the app's files later in
/// its life.
extension DemoScript {
    mutating func backUp(_ device: Device) throws {
        narrator.begin("Back up the device (an encrypted iOS backup)")
        let summary = try device.backUp(to: backupsURL, password: backupPassword, keyDerivation: keyDerivation)
        backupURL = summary.directory
        narrator.say("\(summary.files) files, \(ByteCountText.format(UInt64(max(0, summary.bytesCopied)))) copied to \(summary.directory.path)")
        narrator.say("(the demo derives the backup key with \(keyDerivation.doubleProtectionIterations) PBKDF2 rounds, not iOS's 10,000,000, to stay quick)")
        let reader = try BackupReader(directory: summary.directory, password: backupPassword)
        let domain = "AppDomain-" + PossessionsApp.bundleID
        let paths = Set(reader.records(inDomain: domain).map(\.relativePath))
        narrator.say("\(domain): \(paths.filter { !$0.isEmpty }.sorted().joined(separator: ", "))")
        try narrator.check(paths.contains(PossessionsApp.archivePath)
                           && paths.contains(PossessionsApp.preferencesPath),
                           "Documents and Library/Preferences are in the backup")
        try narrator.check(!paths.contains { StorageRules.rules(forRelativePath: $0).backedUp == false },
                           "Caches, tmp and the bundle are not")
        try narrator.check(reader.domains.contains("KeychainDomain"), "the keychain travels in KeychainDomain, encrypted")
        let again = try device.backUp(to: backupsURL, password: backupPassword, keyDerivation: keyDerivation)
        narrator.say("second backup: \(again.payloadsCopied) copied, \(again.payloadsReused) reused")
        try narrator.check(again.payloadsCopied <= 1 && again.payloadsReused + again.payloadsCopied == summary.payloadsCopied,
                           "a second backup reuses every unchanged file (only the keychain export, sealed afresh each time, is copied)")
    }

    mutating func purge(_ device: Device) throws {
        narrator.begin("The disk runs low: the system purges caches")
        let container = try device.app(PossessionsApp.bundleID).dataContainer()
        var options = ProcessLaunchOptions()
        options.standardOutput = .nullDevice
        options.printsWarnings = false
        let process = try device.launch(PossessionsApp.bundleID, arguments: ["--stay-running"], options: options)
        narrator.say("Possessions is running again, as process \(process.pid)")
        let (space, spared) = try device.checkDiskSpace()
        narrator.say("free space: \(ByteCountText.format(space.free)) of \(ByteCountText.format(space.total)) (a simulated disk), level \(space.level.rawValue)")
        try narrator.check(spared?.skippedRunning.contains(PossessionsApp.bundleID) == true
                           && !(try container.contentsOfDirectory(PossessionsApp.imageDirectory)).isEmpty,
                           "the system purged, but spared the Caches of the running app")
        let outcome = try device.terminate(PossessionsApp.bundleID)
        narrator.say("Possessions terminated (\(outcome.rawValue))")
        let report = try device.purge()
        narrator.say("purge freed \(ByteCountText.format(report.bytes)) in \(report.files) files")
        narrator.show(try ContainerTree(container).lines())
        try narrator.check(!container.fileExists(PossessionsApp.imageDirectory + "/" + app.possessions[0].imageKey + ".png")
                           && (try container.contentsOfDirectory(ContainerDirectory.tmp.relativePath)).isEmpty,
                           "Library/Caches and tmp of the stopped app were emptied")
        try narrator.check(container.fileExists(PossessionsApp.archivePath), "Documents was not touched")
    }

    mutating func relaunch(on device: Device) async throws {
        narrator.begin("Relaunch: the launch check finds the purged pictures, and the app fetches them again")
        let run = try device.run(PossessionsApp.bundleID, delegate: app)
        try run.launch()
        try run.activate()
        app.events.forEach(narrator.say)
        try narrator.check(app.missingImages.count == app.possessions.count && app.missingImages.allSatisfy { $0.reason == .missing },
                           "the cache manifest (in Application Support) survived the purge and lists every purged picture")
        let report = try await refetchPictures(app.missingImages, in: try run.requireContext().container)
        try narrator.check(report.isComplete && report.fetched.count == app.possessions.count,
                           "the app fetched them again in the background, after launch, each verified against its SHA-256")
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
        narrator.say("restored \(report.restoredFiles) files onto \(second.identity.name) (\(second.identity.udid))")
        let installed = try second.app(PossessionsApp.bundleID)
        let container = try installed.dataContainer()
        narrator.show(try ContainerTree(container).lines())
        let possessions = try KeyedUnarchiver.unarchive([Possession].self, from: container.read(PossessionsApp.archivePath))
        try narrator.check(possessions == app.possessions, "the \(possessions.count) possessions are intact")
        let storeFile = container.url(forRelativePath: PossessionsStore.path).path
        let (store, _, origin) = try PersistentStore.openReadOnly(atPath: storeFile)
        try narrator.check(origin == .modelCache && (try store.count(FetchRequest(entityName: PossessionsStore.entity))) == possessions.count,
                           "the restored \(PossessionsStore.path) opens from its file alone (its cached model) with the \(possessions.count) possessions")
        try narrator.check(try PossessionsStore.search("bear", in: container) == ["Shiny Bear"],
                           "and its search still finds possessionName contains[c] \"bear\"")
        narrator.say("try: sandbox store query \(storeFile) Possession --where 'possessionName contains[c] \"mac\"'")
        try narrator.check(try installed.preferences().bool(forKey: PossessionsApp.termsKey), "the terms stay accepted")
        try narrator.check((try container.contentsOfDirectory(ContainerDirectory.caches.relativePath)).isEmpty, "Caches starts empty after a restore")
        let pending = try CacheManifest(container: container).check()
        try narrator.check(pending.problems.count == app.possessions.count,
                           "the cache manifest came back with Application Support: the first launch lists the \(pending.problems.count) pictures to fetch")
        let keychain = installed.keychainClient(on: second)
        let accounts = try keychain.query(KeychainQuery(.genericPassword, KeychainAttributes(service: PossessionsApp.keychainService),
                                                        limit: .all)).compactMap(\.attributes.account)
        try narrator.check(accounts.contains("sync-token"), "sync-token came back (password-protected backup, any device)")
        try narrator.check(!accounts.contains("device-key"), "device-key (ThisDeviceOnly) did not leave the first device")
    }
}
