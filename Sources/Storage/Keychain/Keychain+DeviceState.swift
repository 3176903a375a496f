extension Keychain {
    /// The simulated device's lock and passcode state, shared by every
    /// keychain opened on this store.
    public func deviceState() throws -> KeychainDeviceState {
        try store.read(.deviceState) { db in try KeychainStore.deviceState(db) }
    }

    /// Locks the screen: `whenUnlocked` items become unreadable;
    /// `afterFirstUnlock` items stay readable if the device was unlocked since boot.
    public func lock() throws {
        try changeState { $0.isLocked = true }
    }

    /// Unlocks the device, which also counts as the first unlock since boot.
    public func unlock() throws {
        try changeState {
            $0.isLocked = false
            $0.hasBeenUnlockedSinceBoot = true
        }
    }

    /// Reboots: the device comes back locked and not unlocked since boot, so
    /// only `always` items can be read until ``unlock()``.
    public func reboot() throws {
        try changeState {
            $0.isLocked = true
            $0.hasBeenUnlockedSinceBoot = false
        }
    }

    /// Sets a passcode, which `whenPasscodeSetThisDeviceOnly` items need.
    public func setPasscode() throws {
        try changeState { $0.isPasscodeSet = true }
    }

    /// Removes the passcode and, in the same transaction, deletes every
    /// `whenPasscodeSetThisDeviceOnly` item, as iOS does. Returns how many.
    @discardableResult
    public func removePasscode() throws -> Int {
        try store.write(.deviceState) { db in
            var state = try KeychainStore.deviceState(db)
            state.isPasscodeSet = false
            try KeychainStore.setDeviceState(state, db)
            try db.execute(sql: "DELETE FROM item WHERE accessibility = ?",
                           arguments: [KeychainAccessibility.whenPasscodeSetThisDeviceOnly.rawValue])
            return db.changesCount
        }
    }

    private func changeState(_ change: @escaping @Sendable (inout KeychainDeviceState) -> Void) throws {
        try store.write(.deviceState) { db in
            var state = try KeychainStore.deviceState(db)
            change(&state)
            try KeychainStore.setDeviceState(state, db)
        }
    }
}
