extension AuditRule {
    /// The heading of the rule's section in `docs/STORAGE-RULES.md`
    /// ("Audit rules"), without its id.
    public var title: String {
        switch self {
        case .downloadableInDocuments: "re-downloadable data does not belong in Documents (R1, R5)"
        case .unknownCacheFile: "what Caches holds can be fetched again (R6, R7)"
        case .largeBackedUpApplicationSupport: "large data to keep but not back up carries the flag (R3, R13)"
        case .writtenIntoBundle: "nothing is written into the bundle (R10)"
        case .namesDifferingByCase: "no two names in one directory differ only by letter case"
        case .preferencesWrittenDirectly: "preferences files are written through the preferences API (R4)"
        }
    }
}
