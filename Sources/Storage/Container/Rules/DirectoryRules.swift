/// What iOS does with one directory of an app's home.
public struct DirectoryRules: Sendable, Equatable, Hashable, Codable {
    /// Included in iTunes/Finder and iCloud backups.
    public var backedUp: Bool
    /// Guaranteed to be preserved when the app is updated.
    public var keptAcrossUpdate: Bool
    /// The system may delete its contents when the disk is very low on space.
    public var purgeableWhenDiskLow: Bool
    /// Emptied when the device is fully restored.
    public var emptiedByFullRestore: Bool
    /// The app may create, change and delete files here.
    public var writable: Bool
    /// Emptied when the device starts, for every app that is not running
    /// (iOS cleans `tmp` at boot).
    public var emptiedAtBoot: Bool

    /// Creates a set of rules.
    public init(backedUp: Bool, keptAcrossUpdate: Bool, purgeableWhenDiskLow: Bool, emptiedByFullRestore: Bool, writable: Bool,
                emptiedAtBoot: Bool = false) {
        self.backedUp = backedUp
        self.keptAcrossUpdate = keptAcrossUpdate
        self.purgeableWhenDiskLow = purgeableWhenDiskLow
        self.emptiedByFullRestore = emptiedByFullRestore
        self.writable = writable
        self.emptiedAtBoot = emptiedAtBoot
    }
}
