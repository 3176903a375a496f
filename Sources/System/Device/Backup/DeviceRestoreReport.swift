import MobileBackup

/// What restoring a backup onto a device did: the data restore's report
/// (files written, damaged payloads, rows left out, apps and groups not
/// there) and what happened to the keychain. The data report's fields read
/// through (`report.restoredFiles`, `report.problems` …).
@dynamicMemberLookup
public struct DeviceRestoreReport: Sendable, Hashable {
    /// The apps' and groups' data.
    public var data: RestoreReport
    /// What happened to the keychain, when it was part of the restore.
    public var keychain: KeychainRestoreOutcome?

    /// An empty report.
    public init(data: RestoreReport = RestoreReport(), keychain: KeychainRestoreOutcome? = nil) {
        self.data = data
        self.keychain = keychain
    }

    /// A field of ``data``.
    public subscript<Value>(dynamicMember field: WritableKeyPath<RestoreReport, Value>) -> Value {
        get { data[keyPath: field] }
        set { data[keyPath: field] = newValue }
    }

    /// Whether every payload restored was good.
    public var isClean: Bool { data.isClean }
}
