/// The simulated device's lock state, which decides which accessibility
/// classes can be read (see ``KeychainAccessibility/isAvailable(in:)``).
///
/// It is kept in the store, so every ``Keychain`` opened on one store (in any
/// process) sees the same device. A new store starts unlocked, unlocked since
/// boot, with no passcode. The model lets a device lock without a passcode;
/// on iOS such a device keeps every class key available.
public struct KeychainDeviceState: Sendable, Hashable, Codable {
    /// Whether the screen is locked: `whenUnlocked` items cannot be read.
    public var isLocked: Bool
    /// Whether the device has been unlocked since it last booted:
    /// `afterFirstUnlock` items can be read, even while locked.
    public var hasBeenUnlockedSinceBoot: Bool
    /// Whether a passcode is set: `whenPasscodeSetThisDeviceOnly` items exist
    /// only while it is.
    public var isPasscodeSet: Bool

    /// Creates a state from its three flags.
    public init(isLocked: Bool, hasBeenUnlockedSinceBoot: Bool, isPasscodeSet: Bool) {
        self.isLocked = isLocked
        self.hasBeenUnlockedSinceBoot = hasBeenUnlockedSinceBoot
        self.isPasscodeSet = isPasscodeSet
    }

    /// The state of a new store: unlocked, unlocked since boot, no passcode.
    public static let initial = KeychainDeviceState(isLocked: false, hasBeenUnlockedSinceBoot: true, isPasscodeSet: false)
}
