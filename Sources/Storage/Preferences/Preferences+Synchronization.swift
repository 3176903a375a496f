extension Preferences {
    /// Writes this process's pending changes now and re-reads the domains
    /// if another process changed them, as `UserDefaults.synchronize()`.
    ///
    /// The write is ``PreferencesDurability/atomic``: visible to other
    /// processes and safe from a crash of this one when the call returns.
    public func synchronize() throws {
        // A flush re-reads the file under the lock, so it has already
        // picked up other processes' changes.
        if try !primary.flush(durability: .atomic) { try primary.reloadIfChanged() }
        try global?.reloadIfChanged()
    }

    /// Writes this process's pending changes now, if there are any.
    public func flush(durability: PreferencesDurability = .atomic) throws {
        try primary.flush(durability: durability)
    }

    /// The app moved to the background: pending changes are written and
    /// forced to disk, since a suspended app may be killed without notice.
    public func applicationDidEnterBackground() throws {
        try primary.flush(durability: configuration.lifecycleDurability)
    }

    /// The app is about to terminate: pending changes are written and
    /// forced to disk.
    public func applicationWillTerminate() throws {
        try primary.flush(durability: configuration.lifecycleDurability)
    }
}
