/// The checks that tie items to the device's lock and passcode state.
enum LockRules {
    /// `interactionNotAllowed` unless items of `accessibility` can be used in `state`.
    static func requireAvailable(_ accessibility: KeychainAccessibility, in state: KeychainDeviceState) throws {
        if accessibility == .whenPasscodeSetThisDeviceOnly { try requirePasscode(for: accessibility, in: state) }
        guard accessibility.isAvailable(in: state) else {
            let reason = state.hasBeenUnlockedSinceBoot ? "the device is locked" : "the device has not been unlocked since it booted"
            throw KeychainError(.interactionNotAllowed, "\(accessibility.name) items cannot be used: \(reason)")
        }
    }

    /// `passcodeNotSet` for a `whenPasscodeSetThisDeviceOnly` item on a device without a passcode.
    static func requirePasscode(for accessibility: KeychainAccessibility, in state: KeychainDeviceState) throws {
        guard accessibility == .whenPasscodeSetThisDeviceOnly, !state.isPasscodeSet else { return }
        throw KeychainError(.passcodeNotSet, "whenPasscodeSetThisDeviceOnly items need a device passcode")
    }
}
