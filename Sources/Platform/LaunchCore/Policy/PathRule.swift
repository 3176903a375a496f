/// One path a confined process may reach, and how: the rights hold for the
/// path and everything beneath it.
///
/// A rule with ``beneath`` set is opened in two steps: that directory
/// (following links: it is the launcher's, like a data container made by
/// the device), then the rest of the path beneath it with no symbolic link
/// followed at all (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`).
/// A link there (an app's `Documents` replaced by a link to `/`) fails the
/// launch with ``LaunchErrorCode/linkRefused`` instead of
/// granting the link's target.
public struct PathRule: Sendable, Hashable, CustomStringConvertible {
    /// The file or directory.
    public var path: String
    /// What the process may do there.
    public var access: LandlockAccess
    /// Whether a missing path is skipped (system locations that differ
    /// between distributions) rather than refused.
    public var optional: Bool
    /// A directory that ``path`` lies in (a prefix of it, ending at a
    /// component): the part of ``path`` after it is never followed through
    /// a link. Nil: links are followed (system locations such as `/lib`).
    public var beneath: String?

    /// Creates a rule.
    public init(_ path: String, _ access: LandlockAccess, optional: Bool = false, beneath: String? = nil) {
        self.path = path
        self.access = access
        self.optional = optional
        self.beneath = beneath
    }

    /// The part of ``path`` after ``beneath`` ("" for the directory itself),
    /// or nil when ``beneath`` is not a component prefix of ``path``.
    public var pathBeneath: String? {
        guard let beneath else { return nil }
        guard path.utf8.starts(with: beneath.utf8) else { return nil }
        let rest = path.utf8.dropFirst(beneath.utf8.count)
        if rest.isEmpty { return "" }
        guard rest.first == UInt8(ascii: "/") || beneath.hasSuffix("/") else { return nil }
        return String(decoding: rest.drop { $0 == UInt8(ascii: "/") }, as: UTF8.self)
    }

    /// `<access>[?][+<bytes of beneath>]:<path>`, the form the trampoline
    /// takes on its command line.
    public var description: String {
        let anchor = beneath.map { "+\($0.utf8.count)" } ?? ""
        return "\(access.rawValue)\(optional ? "?" : "")\(anchor):\(path)"
    }

    /// Parses ``description``.
    package init?(encoded: String) {
        guard let colon = encoded.firstIndex(of: ":") else { return nil }
        var head = encoded[..<colon]
        let path = String(encoded[encoded.index(after: colon)...])
        var beneath: String?
        if let plus = head.firstIndex(of: "+") {
            guard let count = Int(head[head.index(after: plus)...]), count >= 0, count <= path.utf8.count else { return nil }
            beneath = String(decoding: path.utf8.prefix(count), as: UTF8.self)
            head = head[..<plus]
        }
        let optional = head.hasSuffix("?")
        if optional { head = head.dropLast() }
        guard let bits = UInt64(head) else { return nil }
        self.init(path, LandlockAccess(rawValue: bits), optional: optional, beneath: beneath)
        if beneath != nil && pathBeneath == nil { return nil }
    }
}
