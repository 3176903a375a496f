/// What a domain has written to its file: the figures that show writes
/// are coalesced and small.
public struct PreferencesStatistics: Hashable, Sendable {
    /// Files written (each one an atomic replace of the whole domain).
    public var fileWrites: Int = 0
    /// Bytes written in those files.
    public var bytesWritten: UInt64 = 0

    /// Creates empty statistics.
    public init() {}
}
