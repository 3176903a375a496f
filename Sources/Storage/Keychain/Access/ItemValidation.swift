/// Checks of the attributes a request gives, before the store is touched.
enum ItemValidation {
    /// The largest port number.
    static let maximumPort = 65_535

    /// `noSuchAttribute` for an attribute `itemClass` does not have;
    /// `invalidParameter` for a port outside 0…65535.
    static func check(_ attributes: KeychainAttributes, of itemClass: KeychainItemClass) throws {
        let foreign = attributes.names.subtracting(itemClass.allowedAttributes)
        if let name = foreign.map(\.rawValue).sorted().first {
            throw KeychainError(.noSuchAttribute, "\(itemClass.rawValue) items have no '\(name)' attribute")
        }
        if let port = attributes.port, !(0...maximumPort).contains(port) {
            throw KeychainError(.invalidParameter, "port \(port) is outside 0…\(maximumPort)")
        }
    }
}
