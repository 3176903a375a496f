import CacheManifest
import Container
import ContentServer
import Device
import FileSystem
import Foundation
import KeyedArchive
import Keychain
import MobileBackup
import NetworkTransfers
import PropertyList

/// The story `sandbox demo` tells, one method per step. Each step acts
/// through the public API the way an app or the system would, prints what
/// is on disk, and checks the iOS behaviour it claims.
struct DemoScript {
    let home: SandboxHome
    var narrator: DemoNarrator
    let app = PossessionsApp()
    /// The password of the demo's backup: an encrypted backup carries the
    /// keychain items that may move to another device.
    let backupPassword = "possessions-demo"

    var devicesRoot: URL { home.devices }
    var firstDeviceURL: URL { devicesRoot.appendingPathComponent("demo-iphone", isDirectory: true) }
    var secondDeviceURL: URL { devicesRoot.appendingPathComponent("demo-iphone-2", isDirectory: true) }
    var backupsURL: URL { home.backups }
    /// The first device's backup, `<backups>/<UDID>`, once step 5 made it.
    var backupURL: URL
    /// A cheaper key derivation than iOS's (10,000,000 rounds take seconds),
    /// so the demo stays quick; readers take the cost from the keybag.
    let keyDerivation = BackupKeyDerivation(doubleProtectionIterations: 100_000, iterations: 10_000)
    var stagingURL: URL { home.root.appendingPathComponent("demo-staging", isDirectory: true) }
    /// What the demo's content server serves: the pictures, `images/<key>.png`.
    var servedURL: URL { stagingURL.appendingPathComponent("served", isDirectory: true) }
    /// The demo's own content server on 127.0.0.1, started by ``run()``.
    var server: ContentServer?

    init(home: SandboxHome, narrator: DemoNarrator) {
        self.home = home
        self.narrator = narrator
        self.backupURL = home.backups
    }

    mutating func run() async throws {
        // Each run starts from fresh devices, so the story is the same every
        // time; the previous run's backup goes with its device.
        var stale = [firstDeviceURL, secondDeviceURL, stagingURL, cloudServiceURL]
        if let previous = try? Device.open(at: firstDeviceURL) {
            stale.append(backupsURL.appendingPathComponent(previous.identity.udid, isDirectory: true))
        }
        for url in stale {
            try FileSystemPaths.removeTree(atPath: url.path)
        }
        narrator.write("Sandbox demo: the Possessions app on a simulated iOS device")
        narrator.write("Everything is kept under \(home.root.path)")
        let server = try await startContentServer()
        self.server = server
        do { try await tellTheStory() } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private mutating func tellTheStory() async throws {
        // A small simulated disk whose free space is already below the purge
        // level once the app has saved its data, so step 6 is a real low-disk event.
        let capacity: UInt64 = 4 << 20
        let device = try Device.create(at: firstDeviceURL, name: "Demo iPhone", capacity: capacity,
                                       thresholds: DiskThresholds(warning: capacity - (64 << 10), critical: capacity - (128 << 10)))
        try device.unlock()
        try install(on: device)
        let run = try firstLaunch(on: device)
        try await saveInBackground(run, on: device)
        try denyEscapes(on: device, running: run)
        try backUp(device)
        try purge(device)
        try await relaunch(on: device)
        try await airplaneMode(on: device)
        try update(device)
        try restoreOntoSecondDevice()
        try await backUpToICloud()
        try auditPossessions()

        narrator.write("")
        narrator.write("Done. Inspect what the demo left:")
        narrator.write("  devices: \(firstDeviceURL.path)")
        narrator.write("           \(secondDeviceURL.path)")
        narrator.write("  backup:  \(backupURL.path)")
        narrator.write("  audit:   \(auditReportURL.path)")
        narrator.write("  try: sandbox listapps --device \(firstDeviceURL.path)")
        narrator.write("       sandbox backup info \(backupURL.path) --password \(backupPassword)")
        narrator.write("       sandbox audit --device \(firstDeviceURL.path) --html audit.html")
    }

    // MARK: 1–4

    mutating func install(on device: Device) throws {
        narrator.begin("Install Possessions 1.0")
        let bundle = try PossessionsBundle.make(version: "1.0", in: stagingURL)
        let installed = try device.install(bundleAt: bundle)
        narrator.say("bundle container: \(installed.bundleContainer.path)")
        narrator.say("data container:   \(installed.dataContainerURL.path)")
        let container = try installed.dataContainer()
        narrator.show(try ContainerTree(container).lines())
        try narrator.check(try installed.bundle.verifySeal() == .valid, "the installer sealed the bundle (SHA-256 of every file)")
        let layout = ContainerDirectory.layout(of: .app).map(\.relativePath)
        try narrator.check(layout.allSatisfy(container.fileExists), "the home directory has Documents, Library (Preferences, Caches, Application Support) and tmp")
    }

    mutating func firstLaunch(on device: Device) throws -> AppRun {
        narrator.begin("First launch")
        let run = try device.run(PossessionsApp.bundleID, delegate: app)
        try run.launch()
        try run.activate()
        app.events.forEach(narrator.say)
        let context = try run.requireContext()
        try narrator.check(!app.termsWereAccepted && context.preferences.bool(forKey: PossessionsApp.termsKey),
                           "the terms were asked for once and the answer is in NSUserDefaults")
        // One secret that may follow the user to a new phone, one that must not.
        let keychain = context.keychain
        _ = try keychain.add(.genericPassword, KeychainAttributes(service: PossessionsApp.keychainService, account: "sync-token",
                                                                  accessibility: .afterFirstUnlock), data: Data("token-123".utf8))
        _ = try keychain.add(.genericPassword, KeychainAttributes(service: PossessionsApp.keychainService, account: "device-key",
                                                                  accessibility: .whenUnlockedThisDeviceOnly), data: Data("bound-456".utf8))
        narrator.say("stored two keychain items: sync-token (afterFirstUnlock), device-key (whenUnlockedThisDeviceOnly)")
        narrator.say("state: \(run.state)")
        return run
    }

    mutating func saveInBackground(_ run: AppRun, on device: Device) async throws {
        narrator.begin("Add possessions, download their pictures, then press the Home button")
        app.add(Possession.samples(createdAt: Date(timeIntervalSinceReferenceDate: 815_000_000)))
        try await downloadPictures(into: try run.requireContext().container)
        try run.resignActive()
        try run.enterBackground()
        app.events.forEach(narrator.say)
        let container = try run.requireContext().container
        narrator.show(try ContainerTree(container).lines())
        let saved = try KeyedUnarchiver.unarchive([Possession].self, from: container.read(PossessionsApp.archivePath))
        try narrator.check(saved == app.possessions, "Documents/possessions.data is an NSKeyedArchiver archive of the \(saved.count) possessions")
        let found = try PossessionsStore.search("SPORK", in: container)
        narrator.say("search box: possessionName contains[c] \"SPORK\" in \(PossessionsStore.path) -> \(found)")
        try narrator.check(found == ["Rusty Spork"],
                           "the inventory is also in a store in Core Data's layout, searched case-insensitively with an NSPredicate format")
        let prefsPath = PossessionsApp.preferencesPath
        let (prefs, format) = try PropertyListValue.decode(container.read(prefsPath))
        try narrator.check(format == .binary && prefs[PossessionsApp.termsKey] == true,
                           "entering the background flushed the preferences to \(prefsPath) (binary plist)")
        narrator.say("state: \(run.state)")
    }

    mutating func denyEscapes(on device: Device, running run: AppRun) throws {
        narrator.begin("The app tries to write outside its sandbox")
        let installed = try device.app(PossessionsApp.bundleID)
        let container = try installed.dataContainer()
        let attempts: [(String, String)] = [
            ("../escaped.txt", "a path that climbs out of the container"),
            ("escaped.txt", "the root of the home directory"),
            ("/etc/escaped.txt", "an absolute path"),
        ]
        for (path, what) in attempts {
            do {
                try container.writeAtomically(Data("x".utf8), to: path)
                throw DemoError(step: narrator.step, claim: "a write to \(what) is refused")
            } catch let error as ContainerError {
                narrator.say("write to \(path): refused (\(error.code))")
            }
        }
        try narrator.check(!FileSystemPaths.exists(atPath: installed.dataContainerURL.deletingLastPathComponent()
                                                            .appendingPathComponent("escaped.txt").path),
                           "nothing was written outside the container or at its root")
        try run.terminate()
        narrator.say("the user closes Possessions (state: \(run.state)) and it is started again as a real process:")
        try launchProbe(on: device, installed: installed)
    }
}
