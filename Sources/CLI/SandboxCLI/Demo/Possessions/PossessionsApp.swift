import CacheManifest
import Container
import Device
import Foundation
import KeyedArchive
import Keychain
import PropertyList

/// The seed documents' Possessions app as an in-process app on a ``Device``:
/// it accepts the terms of service once (a preference), keeps its inventory
/// in `Documents/possessions.data` (a keyed archive written when it goes to
/// the background, and in `Documents/Possessions.sqlite`, a store in Core
/// Data's layout that its search box queries), downloads a picture per possession into Caches through
/// the cache manifest, keeps a draft in tmp, and at each launch checks the
/// manifest against its Caches to list the pictures a purge took.
final class PossessionsApp: AppDelegate {
    static let bundleID = "com.example.Possessions"
    static let archivePath = ContainerDirectory.documents.relativePath + "/possessions.data"
    static let imageDirectory = ContainerDirectory.caches.relativePath + "/Images"
    /// The pictures' names inside Caches (`Images/<key>.png`).
    static func imageName(_ possession: Possession) -> String { "Images/\(possession.imageKey).png" }
    static let draftPath = ContainerDirectory.tmp.relativePath + "/draft.txt"
    static let termsKey = "TermsAccepted"
    /// The app's preferences file, as `NSUserDefaults` names it.
    static let preferencesPath = ContainerDirectory.preferences.relativePath + "/\(bundleID).plist"
    static let keychainService = "com.example.Possessions.sync"
    static let probeReportPath = ContainerDirectory.documents.relativePath + "/sandbox-report.txt"

    /// What the app did in its last callbacks, for the narrator.
    private(set) var events: [String] = []
    /// The inventory in memory.
    private(set) var possessions: [Possession] = []
    /// What the launch check found missing or damaged in Caches at the
    /// last launch: the app fetches these again in the background.
    private(set) var missingImages: [CacheProblem] = []
    /// Whether the terms were already accepted at the last launch.
    private(set) var termsWereAccepted = false

    /// Adds possessions to the in-memory inventory; they reach the disk when
    /// the app goes to the background, as the example app saves them.
    func add(_ items: [Possession]) { possessions += items }

    func application(_ app: AppContext, didFinishLaunchingWithOptions options: LaunchOptions) throws -> Bool {
        events = []
        termsWereAccepted = app.preferences.bool(forKey: Self.termsKey)
        if !termsWereAccepted {
            app.preferences.set(true, forKey: Self.termsKey)
            events.append("terms of service shown and accepted; stored as \(Self.termsKey) = YES in preferences")
        } else {
            events.append("terms already accepted (\(Self.termsKey) = YES read from preferences)")
        }
        if app.container.fileExists(Self.archivePath) {
            possessions = try KeyedUnarchiver.unarchive([Possession].self, from: app.container.read(Self.archivePath))
            events.append("loaded \(possessions.count) possessions from \(Self.archivePath)")
        }
        // The launch check: one pass over the manifest and Caches, no
        // hashing and no network on the launch path.
        let manifest = try CacheManifest(container: app.container)
        let check = try manifest.check()
        missingImages = check.problems
        if check.checked > 0 {
            events.append("launch check: \(check.checked) pictures in the cache manifest, \(check.healthy) in Caches, "
                          + "\(check.problems.count) missing")
        }
        return true
    }

    func applicationDidEnterBackground(_ app: AppContext) throws {
        try save(in: app.container)
        events = []
        events.append("archived \(possessions.count) possessions to \(Self.archivePath)")
    }

    func applicationWillTerminate(_ app: AppContext) throws {
        try save(in: app.container)
    }

    private func save(in container: AppContainer) throws {
        let data = try KeyedArchiver.archivedData(withRootObject: possessions)
        try container.writeAtomically(data, to: Self.archivePath)
        try PossessionsStore.save(possessions, in: container)
        let draft = possessions.map { "\($0.possessionName) ($\($0.valueInDollars))" }.joined(separator: "\n")
        try container.writeAtomically(Data(draft.utf8), to: Self.draftPath)
    }

    /// A stand-in picture, as the demo's content server serves it: a PNG
    /// signature followed by bytes derived from the possession, large enough
    /// that the purge has something to free.
    static func picture(of possession: Possession) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // FNV-1a of the serial number seeds a xorshift, so the bytes are the same every run.
        var seed = possession.serialNumber.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 } | 1
        for _ in 0..<(48 * 1024) {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            bytes.append(UInt8(truncatingIfNeeded: seed))
        }
        return Data(bytes)
    }
}
