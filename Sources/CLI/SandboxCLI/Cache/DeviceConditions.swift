import Device
import FileSystem
import Foundation
import NetworkConditions
import NetworkTransfers

/// The device's network conditions as a downloader asks for them.
enum DeviceConditions {
    /// How long a reading of the conditions is reused: reading takes the
    /// device lock and may rewrite `network.plist`, too much to do before
    /// each of a thousand downloads, while a switch flipped meanwhile
    /// (`sandbox network set`) is still honoured within this time.
    static let freshness: Double = 1

    /// The device's conditions (``Device/network``), read at most once a
    /// ``freshness``; conditions that cannot be read count as no route.
    static func current(of device: Device) -> Downloader.Conditions {
        let cache = Locked<(read: Double, route: Result<NetworkRoute, NetworkUnavailable>)?>(nil)
        return {
            let now = Date().timeIntervalSince1970
            if let cached = cache.withLock({ $0 }), now - cached.read < freshness { return cached.route }
            let route: Result<NetworkRoute, NetworkUnavailable>
            do { route = try device.network.currentRoute } catch {
                route = .failure(NetworkUnavailable(.noRoute, message: "the device's network conditions cannot be read: \(error)"))
            }
            cache.withLock { $0 = (now, route) }
            return route
        }
    }
}
