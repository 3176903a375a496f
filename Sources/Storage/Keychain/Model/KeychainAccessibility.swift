/// When an item's data can be read (`kSecAttrAccessible`), and whether it may
/// leave the device in a backup.
///
/// The raw values are iOS's protection-domain codes (`pdmn`): `ak`, `ck`,
/// `dk` for the classes that migrate, a `u` suffix for `ThisDeviceOnly`, and
/// `akpu` for `whenPasscodeSetThisDeviceOnly`. Each class has its own
/// encryption key (see ``Keychain``).
public enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable, Codable {
    /// Readable only while the device is unlocked; the default, as on iOS.
    case whenUnlocked = "ak"
    /// Readable once the device has been unlocked after its last reboot.
    case afterFirstUnlock = "ck"
    /// Always readable (deprecated on iOS 12, kept for old items).
    case always = "dk"
    /// ``whenUnlocked``, and never in a backup.
    case whenUnlockedThisDeviceOnly = "aku"
    /// ``afterFirstUnlock``, and never in a backup.
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// ``always``, and never in a backup.
    case alwaysThisDeviceOnly = "dku"
    /// Readable while unlocked, only on a device with a passcode: adding one
    /// without a passcode fails, and removing the passcode deletes them.
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// The class iOS uses when an add names none.
    public static let `default` = KeychainAccessibility.whenUnlocked

    /// Whether items of this class are left out of every backup, so they
    /// never reach another device.
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock, .always: return false
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
             .whenPasscodeSetThisDeviceOnly: return true
        }
    }

    /// Whether items of this class can be read in `state`.
    public func isAvailable(in state: KeychainDeviceState) -> Bool {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly: return !state.isLocked
        case .whenPasscodeSetThisDeviceOnly: return !state.isLocked && state.isPasscodeSet
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: return state.hasBeenUnlockedSinceBoot
        case .always, .alwaysThisDeviceOnly: return true
        }
    }

    /// The spelled-out name used on the command line and in messages
    /// (`whenUnlockedThisDeviceOnly`).
    public var name: String {
        switch self {
        case .whenUnlocked: return "whenUnlocked"
        case .afterFirstUnlock: return "afterFirstUnlock"
        case .always: return "always"
        case .whenUnlockedThisDeviceOnly: return "whenUnlockedThisDeviceOnly"
        case .afterFirstUnlockThisDeviceOnly: return "afterFirstUnlockThisDeviceOnly"
        case .alwaysThisDeviceOnly: return "alwaysThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: return "whenPasscodeSetThisDeviceOnly"
        }
    }

    /// The class with the spelled-out `name` or the raw code, if any.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name || $0.rawValue == name }) else { return nil }
        self = match
    }
}
