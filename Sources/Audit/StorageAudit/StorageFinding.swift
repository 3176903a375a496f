/// The guideline a finding breaks: a numbered section of
/// `docs/STORAGE-RULES.md` ("Audit rules"), which quotes Apple's text.
public enum AuditRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// A1: re-downloadable data belongs in Caches, not Documents.
    case downloadableInDocuments = "A1"
    /// A2: what Caches holds must be fetchable again after a purge.
    case unknownCacheFile = "A2"
    /// A3: large data to keep on the device, but not back up, carries the flag.
    case largeBackedUpApplicationSupport = "A3"
    /// A4: the bundle is not written after install.
    case writtenIntoBundle = "A4"
    /// A5: names in one directory that differ only by letter case.
    case namesDifferingByCase = "A5"
    /// A6: preferences files are written through the preferences API.
    case preferencesWrittenDirectly = "A6"

    /// The section of `docs/STORAGE-RULES.md` the rule cites.
    public var section: String { "docs/STORAGE-RULES.md#\(rawValue.lowercased())" }

    /// What to do about it.
    public var suggestedFix: String {
        switch self {
        case .downloadableInDocuments:
            "Move it to Library/Caches and record it in the cache manifest, so it is re-fetched after a purge instead of backed up."
        case .unknownCacheFile:
            "Record it in the cache manifest (or move data the app cannot fetch again to Application Support)."
        case .largeBackedUpApplicationSupport:
            "If it can be recreated or downloaded again, set the do-not-back-up flag on it (or its folder); else keep it backed up."
        case .writtenIntoBundle:
            "Write into Documents, Library or tmp; the bundle is read-only and its seal no longer matches."
        case .namesDifferingByCase:
            "Rename one: the names collide on a case-insensitive file system (the Simulator's host, a restore to a Mac)."
        case .preferencesWrittenDirectly:
            "Set preferences through the Preferences API (NSUserDefaults), which writes the binary format under its lock."
        }
    }
}

/// One departure from the storage guidelines, found in one app.
public struct StorageFinding: Sendable, Hashable, Codable {
    /// The rule it breaks.
    public var rule: AuditRule
    /// The section of `docs/STORAGE-RULES.md` the rule is written in.
    public var section: String
    /// The file or directory, relative to the container root (the bundle's
    /// files as `<Name>.app/…`).
    public var path: String
    /// The allocated bytes concerned.
    public var bytes: UInt64
    /// Why the item was flagged.
    public var detail: String
    /// What to do about it.
    public var suggestedFix: String
    /// How many items the finding stands for when it is a folder's (more
    /// than a few items in one folder broke the rule); nil for one item.
    public var count: Int?
    /// The first few of those items, relative to the container root.
    public var examples: [String]?

    public init(_ rule: AuditRule, path: String, bytes: UInt64, detail: String) {
        self.rule = rule
        section = rule.section
        self.path = path
        self.bytes = bytes
        self.detail = detail
        suggestedFix = rule.suggestedFix
    }
}
