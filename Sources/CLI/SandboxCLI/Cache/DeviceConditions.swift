import Device
import NetworkConditions
import NetworkTransfers

/// The device's network conditions as a downloader asks for them.
enum DeviceConditions {
    /// Reads the device's conditions (``Device/network``) before each
    /// attempt, so a switch flipped meanwhile (`sandbox network set`) is
    /// honoured; conditions that cannot be read count as no route.
    static func current(of device: Device) -> Downloader.Conditions {
        {
            do { return try device.network.currentRoute } catch {
                return .failure(NetworkUnavailable(.noRoute, message: "the device's network conditions cannot be read: \(error)"))
            }
        }
    }
}
