import Foundation

/// Object names as URL path segments and query values for Swift's API.
enum SwiftPath {
    /// RFC 3986's unreserved characters, ASCII only: everything else in a
    /// name (spaces, `%`, `?`, `#`, `+`, non-ASCII) is sent percent-encoded,
    /// so the proxy sees the exact name.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with every byte but the unreserved ones percent-encoded
    /// (a `/` too: for a query value or a single segment).
    static func encode(_ text: String) -> String {
        // Only unpaired surrogates make this fail, and a Swift String has none.
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `key` as a path: each `/`-separated segment encoded, the separators kept.
    static func encodeKey(_ key: String) -> String {
        key.split(separator: "/", omittingEmptySubsequences: false).map { encode(String($0)) }.joined(separator: "/")
    }
}
