import FileSystem
import Foundation
import NetworkConditions

extension Device {
    /// The device's radio conditions now: Wi-Fi, cellular data, airplane
    /// mode, the lock, the Wi-Fi power timer and the network clock, kept in
    /// `network.plist` (a new device has `DeviceNetwork()`'s defaults: Wi-Fi
    /// on, no cellular data, the clock at 0).
    ///
    /// Reading brings the stored conditions up to date first (and saves
    /// them if that changed anything): `DeviceNetwork.locked` is the
    /// device's lock (``isLocked``), and apps that held the Wi-Fi timer but
    /// no longer run release it, the timer re-arming then. Because the
    /// network clock moves only through ``updateNetwork(_:)``, which does the
    /// same first, the timer re-arms at the clock time the app quit.
    public var network: DeviceNetwork {
        get throws { try updateNetwork { $0 } }
    }

    /// Changes the radio conditions under the device lock: reads them
    /// (brought up to date as ``network`` says), runs `body`, and writes
    /// them back atomically if they changed. Locking or unlocking in `body`
    /// (`DeviceNetwork.setLocked(_:)`) locks or unlocks the device.
    ///
    /// ```swift
    /// try device.updateNetwork { network in
    ///     network.setAirplaneMode(true)
    ///     try network.advance(by: 30 * 60)
    /// }
    /// ```
    @discardableResult
    public func updateNetwork<T>(_ body: (inout DeviceNetwork) throws -> T) throws -> T {
        try withDeviceLock {
            let stored = try RecordFile.read(DeviceNetwork.self, from: layout.networkPlist)
            var network = stored ?? DeviceNetwork()
            let locked = try isLocked
            network.setLocked(locked)
            network.releaseHolders(notIn: Set(try runningApps().map(\.bundleID)))
            let result = try body(&network)
            if network.locked != locked { try network.locked ? lock() : unlock() }
            if network != stored {
                // Losing the last change to a power cut is harmless (the
                // switches are set again), but the file must never be torn.
                try RecordFile.write(network, to: layout.networkPlist, durability: .fileOnly)
            }
            return result
        }
    }

    /// Moves the network clock forward by `seconds` and returns the conditions then.
    ///
    /// - Throws: `NetworkClockError` for a negative or non-finite amount.
    @discardableResult
    public func advanceNetworkClock(by seconds: Double) throws -> DeviceNetwork {
        try updateNetwork { network in
            try network.advance(by: seconds)
            return network
        }
    }

    /// Records an app's launch in the conditions: decides the airplane-mode
    /// alert, and lets an app whose `Info.plist` has `UIRequiresPersistentWiFi`
    /// true hold the Wi-Fi timer while it runs (its run record must exist).
    func recordNetworkLaunch(of app: InstalledApp) throws -> NetworkLaunchReport {
        let requires = PersistentWiFiKey.isRequired(by: app.bundle.info.raw)
        return try updateNetwork { $0.appLaunched(app.bundleID, requiresPersistentWiFi: requires) }
    }
}
