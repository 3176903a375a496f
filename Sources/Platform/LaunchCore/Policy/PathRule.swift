/// One path a confined process may reach, and how: the rights hold for the
/// path and everything beneath it.
public struct PathRule: Sendable, Hashable, CustomStringConvertible {
    /// The file or directory (symbolic links in it are followed when the rule
    /// is applied, so the rule covers the link's target).
    public var path: String
    /// What the process may do there.
    public var access: LandlockAccess
    /// Whether a missing path is skipped (system locations that differ
    /// between distributions) rather than refused.
    public var optional: Bool

    /// Creates a rule.
    public init(_ path: String, _ access: LandlockAccess, optional: Bool = false) {
        self.path = path
        self.access = access
        self.optional = optional
    }

    /// `<access>:<path>`, the form the trampoline takes on its command line.
    public var description: String { "\(access.rawValue)\(optional ? "?" : ""):\(path)" }

    /// Parses ``description``.
    package init?(encoded: String) {
        guard let colon = encoded.firstIndex(of: ":") else { return nil }
        var head = encoded[..<colon]
        let optional = head.hasSuffix("?")
        if optional { head = head.dropLast() }
        guard let bits = UInt64(head) else { return nil }
        self.init(String(encoded[encoded.index(after: colon)...]), LandlockAccess(rawValue: bits), optional: optional)
    }
}
