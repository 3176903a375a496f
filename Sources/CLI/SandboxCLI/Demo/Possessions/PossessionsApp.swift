import Container
import Device
import Foundation
import KeyedArchive
import Keychain
import PropertyList

/// The seed documents' Possessions app as an in-process app on a ``Device``:
/// it accepts the terms of service once (a preference), keeps its inventory
/// in `Documents/possessions.data` (a keyed archive written when it goes to
/// the background), keeps a picture per possession in Caches and a draft in
/// tmp, and rebuilds pictures the system purged when it next launches.
final class PossessionsApp: AppDelegate {
    static let bundleID = "com.example.Possessions"
    static let archivePath = "Documents/possessions.data"
    static let imageDirectory = "Library/Caches/Images"
    static let draftPath = "tmp/draft.txt"
    static let termsKey = "TermsAccepted"
    static let keychainService = "com.example.Possessions.sync"
    static let probeReportPath = "Documents/sandbox-report.txt"

    /// What the app did in its last callbacks, for the narrator.
    private(set) var events: [String] = []
    /// The inventory in memory.
    private(set) var possessions: [Possession] = []
    /// Pictures rebuilt at the last launch because the cache had lost them.
    private(set) var rebuiltImages: [String] = []
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
        rebuiltImages = try rebuildMissingImages(in: app.container)
        if !rebuiltImages.isEmpty {
            events.append("cache lost \(rebuiltImages.count) pictures; rebuilt them in \(Self.imageDirectory)")
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
        _ = try rebuildMissingImages(in: container)
        let draft = possessions.map { "\($0.possessionName) ($\($0.valueInDollars))" }.joined(separator: "\n")
        try container.writeAtomically(Data(draft.utf8), to: Self.draftPath)
    }

    /// Writes the picture of every possession whose picture is missing, and
    /// returns their keys. A real app would fetch them again from the network;
    /// the demo draws them from the possession's own data, so it needs none.
    private func rebuildMissingImages(in container: AppContainer) throws -> [String] {
        guard !possessions.isEmpty else { return [] }
        try container.createDirectory(Self.imageDirectory)
        var rebuilt: [String] = []
        for possession in possessions {
            let path = Self.imageDirectory + "/" + possession.imageKey + ".png"
            guard !container.fileExists(path) else { continue }
            try container.writeAtomically(Self.picture(of: possession), to: path)
            rebuilt.append(possession.imageKey)
        }
        return rebuilt
    }

    /// A stand-in picture: a PNG signature followed by bytes derived from the
    /// possession, large enough that the purge has something to free.
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
