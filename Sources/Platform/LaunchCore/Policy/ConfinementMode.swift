/// What a launch does about kernel confinement.
public enum ConfinementMode: String, Sendable, Hashable, CaseIterable {
    /// Confine where the kernel has Landlock; elsewhere warn and run the
    /// program unconfined (the report says `confined == false`).
    case automatic
    /// Confine or refuse to launch (``LaunchErrorCode/landlockUnavailable``).
    case required
    /// Do not confine: the launch behaves exactly as on a kernel without
    /// Landlock, warning included. For diagnosis and for testing that path
    /// on machines that have Landlock.
    case disabled
}

/// What confinement a launched process actually got.
public struct Confinement: Sendable, Hashable {
    /// Whether the kernel enforces the rules on the process.
    public var confined: Bool
    /// The Landlock ABI version used (0 when unconfined).
    public var abi: Int
    /// The warning given when the process runs unconfined, or when the
    /// kernel's ABI cannot enforce every rule (nil otherwise).
    public var warning: String?

    /// The warning for an unconfined launch.
    public static func warning(_ reason: String) -> String {
        "warning: \(reason); the program runs UNCONFINED (its files are not protected by the kernel)"
    }

    /// Creates a report.
    public init(confined: Bool, abi: Int, warning: String? = nil) {
        self.confined = confined
        self.abi = abi
        self.warning = warning
    }
}
