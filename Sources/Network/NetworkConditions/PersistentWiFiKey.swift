import Foundation
import PropertyList

/// `UIRequiresPersistentWiFi`, read from a bundle's `Info.plist`.
///
/// Only the Boolean true counts: the key is documented as a Boolean, and a
/// string such as `"YES"` (a common mistake in hand-written plists) is not
/// one, so it does not hold the Wi-Fi power timer.
public enum PersistentWiFiKey {
    /// The key's name.
    public static let name = "UIRequiresPersistentWiFi"

    /// Whether a decoded `Info.plist` requires persistent Wi-Fi.
    public static func isRequired(by info: PropertyListValue) -> Bool {
        info[name]?.boolValue == true
    }

    /// Whether an `Info.plist` (binary, XML or old-style) requires
    /// persistent Wi-Fi.
    ///
    /// - Throws: `PropertyListError` when the bytes are not a property list.
    public static func isRequired(byInfoPlist data: Data) throws -> Bool {
        isRequired(by: try PropertyListValue(data: data))
    }
}
