/// How full a device is, and how that compares with its low-disk thresholds.
public struct DiskSpace: Sendable, Hashable, Codable {
    /// The device's capacity in bytes (simulated, or the file system's).
    public var total: UInt64
    /// Bytes still available to apps.
    public var free: UInt64
    /// Whether ``total`` is the simulated capacity rather than the host's.
    public var isSimulated: Bool
    /// The level ``free`` falls in.
    public var level: DiskLevel

    /// Bytes in use.
    public var used: UInt64 { total >= free ? total - free : 0 }
}

/// How low a device's free space is.
public enum DiskLevel: String, Sendable, Hashable, Codable, Comparable {
    /// Above the warning threshold.
    case normal
    /// Below ``DiskThresholds/warning``: running apps get the low-disk warning.
    case low
    /// Below ``DiskThresholds/critical``: the system purges Caches and tmp of
    /// apps that are not running.
    case critical

    private var rank: Int {
        switch self {
        case .normal: 0
        case .low: 1
        case .critical: 2
        }
    }

    /// Orders levels from normal to critical.
    public static func < (lhs: DiskLevel, rhs: DiskLevel) -> Bool { lhs.rank < rhs.rank }
}

/// The free-space levels, in bytes, below which a device warns and purges.
///
/// The defaults are iOS-like: a warning below 1 GiB free and a purge below
/// 200 MiB, each capped at a tenth (and a fortieth) of the capacity so a
/// small simulated device is not permanently "low".
public struct DiskThresholds: Sendable, Hashable, Codable {
    /// Free bytes below which running apps are warned.
    public var warning: UInt64
    /// Free bytes below which Caches and tmp are purged.
    public var critical: UInt64

    /// Creates thresholds; `critical` should be below `warning`.
    public init(warning: UInt64, critical: UInt64) {
        self.warning = warning
        self.critical = critical
    }

    /// The default thresholds for a device of `capacity` bytes.
    public static func defaults(capacity: UInt64) -> DiskThresholds {
        DiskThresholds(warning: min(1 << 30, capacity / 10), critical: min(200 << 20, capacity / 40))
    }

    /// The level `free` bytes fall in.
    public func level(free: UInt64) -> DiskLevel {
        if free < critical { return .critical }
        if free < warning { return .low }
        return .normal
    }
}
