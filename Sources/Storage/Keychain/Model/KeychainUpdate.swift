import Foundation

/// The changes an update makes to every matching item (`SecItemUpdate`'s
/// second dictionary).
public struct KeychainUpdate: Sendable, Hashable {
    /// Attributes to replace; `nil` ones are left as they are.
    public var attributes: KeychainAttributes
    /// New data, or `nil` to keep the data.
    public var data: Data?

    /// Creates an update; at least one change is needed.
    public init(attributes: KeychainAttributes = KeychainAttributes(), data: Data? = nil) {
        self.attributes = attributes
        self.data = data
    }
}
