/// The protocol of an internet password (`kSecAttrProtocol`), as iOS's
/// four-character code (`htps`, `ssh `).
public struct KeychainProtocol: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    /// The four-character code.
    public var rawValue: String

    /// A protocol from its code; any string is kept as given.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A protocol from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// HTTP (`kSecAttrProtocolHTTP`).
    public static let http: KeychainProtocol = "http"
    /// HTTPS (`kSecAttrProtocolHTTPS`).
    public static let https: KeychainProtocol = "htps"
    /// FTP (`kSecAttrProtocolFTP`).
    public static let ftp: KeychainProtocol = "ftp "
    /// SSH (`kSecAttrProtocolSSH`).
    public static let ssh: KeychainProtocol = "ssh "
    /// IMAP (`kSecAttrProtocolIMAP`).
    public static let imap: KeychainProtocol = "imap"
    /// SMTP (`kSecAttrProtocolSMTP`).
    public static let smtp: KeychainProtocol = "smtp"
}
