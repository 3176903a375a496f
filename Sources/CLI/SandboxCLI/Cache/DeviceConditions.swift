import Device
import NetworkTransfers
import NetworkConditions

/// The device's network conditions as a downloader asks for them.
enum DeviceConditions {
    /// Placeholder until the device keeps its network conditions: always Wi-Fi.
    static func current(of device: Device) -> Downloader.Conditions {
        { .success(.wifi) }
    }
}
