/// The unprivileged user a launched app runs as, as iOS runs every app as
/// `mobile` (501): started by root, the trampoline takes on this user and
/// group, with no supplementary groups and no capabilities, before it execs
/// the program (``PrivilegeDrop``).
public struct AppUser: Sendable, Hashable, CustomStringConvertible {
    /// The user id (never 0).
    public var uid: UInt32
    /// The group id (never 0).
    public var gid: UInt32

    /// A user; ids of 0 are refused when the launch starts.
    public init(uid: UInt32, gid: UInt32) {
        self.uid = uid
        self.gid = gid
    }

    /// iOS's `mobile` user: uid and gid 501.
    public static let mobile = AppUser(uid: 501, gid: 501)

    /// `<uid>:<gid>`, the trampoline's `--user` value.
    public var description: String { "\(uid):\(gid)" }

    /// Parses ``description``.
    package init?(encoded: String) {
        let parts = encoded.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let uid = UInt32(parts[0]), let gid = UInt32(parts[1]) else { return nil }
        self.init(uid: uid, gid: gid)
    }
}
