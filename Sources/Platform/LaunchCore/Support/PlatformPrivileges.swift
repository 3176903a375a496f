// The credential and capability calls of `PrivilegeDrop`, behind the
// module's import ladder.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
// Not imported from Glibc (behind _GNU_SOURCE, or in libcap's header).
// Every argument is an integer or a pointer. `c_prctl` is Platform.swift's.
@_silgen_name("setresuid")
private func c_setresuid(_ r: UInt32, _ e: UInt32, _ s: UInt32) -> Int32
@_silgen_name("setresgid")
private func c_setresgid(_ r: UInt32, _ e: UInt32, _ s: UInt32) -> Int32
@_silgen_name("getresuid")
private func c_getresuid(_ r: UnsafeMutablePointer<UInt32>, _ e: UnsafeMutablePointer<UInt32>, _ s: UnsafeMutablePointer<UInt32>) -> Int32
@_silgen_name("getresgid")
private func c_getresgid(_ r: UnsafeMutablePointer<UInt32>, _ e: UnsafeMutablePointer<UInt32>, _ s: UnsafeMutablePointer<UInt32>) -> Int32
@_silgen_name("setgroups")
private func c_setgroups(_ count: Int, _ groups: UnsafePointer<UInt32>?) -> Int32
@_silgen_name("capget")
private func c_capget(_ header: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?) -> Int32
@_silgen_name("capset")
private func c_capset(_ header: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?) -> Int32
#endif

/// The three capability sets (bit masks of `CAP_*`).
struct CapabilitySets: Equatable, CustomStringConvertible {
    var effective: UInt64
    var permitted: UInt64
    var inheritable: UInt64
    var description: String { "effective \(effective), permitted \(permitted), inheritable \(inheritable)" }
}

extension Platform {
    #if os(Linux)
    private static let prSetNoNewPrivs: Int32 = 38
    private static let prGetNoNewPrivs: Int32 = 39
    private static let prCapBoundingDrop: Int32 = 24
    private static let prCapAmbient: Int32 = 47
    private static let prCapAmbientIsSet: UInt = 1
    private static let prCapAmbientClearAll: UInt = 4
    private static let capabilityVersion3: UInt32 = 0x2008_0522
    /// Capability numbers are below 64 (the kernel has 41 today).
    private static let capabilityCount = 64
    #endif

    static var effectiveUserID: UInt32 { geteuid() }

    static func enableNoNewPrivileges() throws {
        #if os(Linux)
        guard c_prctl(prSetNoNewPrivs, 1, 0, 0, 0) == 0 else { throw SystemFailure(errno: errno) }
        #endif
    }

    static var noNewPrivileges: Bool {
        #if os(Linux)
        return c_prctl(prGetNoNewPrivs, 0, 0, 0, 0) == 1
        #else
        return false
        #endif
    }

    /// Empties the bounding set (needs `CAP_SETPCAP`; without it nothing
    /// changes, and the later checks of the other sets still hold) and the
    /// ambient set.
    static func dropBoundingCapabilities() {
        #if os(Linux)
        for capability in 0..<capabilityCount {
            if c_prctl(prCapBoundingDrop, UInt(capability), 0, 0, 0) != 0 && errno == EINVAL { break }
        }
        _ = c_prctl(prCapAmbient, prCapAmbientClearAll, 0, 0, 0)
        #endif
    }

    static func hasAmbientCapabilities() -> Bool {
        #if os(Linux)
        for capability in 0..<capabilityCount {
            let result = c_prctl(prCapAmbient, prCapAmbientIsSet, UInt(capability), 0, 0)
            if result < 0 { return false }  // past the last capability, or no ambient set
            if result == 1 { return true }
        }
        #endif
        return false
    }

    static func setGroupIDs(_ gid: UInt32) throws {
        #if os(Linux)
        guard c_setresgid(gid, gid, gid) == 0 else { throw SystemFailure(errno: errno) }
        #endif
    }

    static func clearSupplementaryGroups() throws {
        #if os(Linux)
        guard c_setgroups(0, nil) == 0 else { throw SystemFailure(errno: errno) }
        #endif
    }

    static func setUserIDs(_ uid: UInt32) throws {
        #if os(Linux)
        guard c_setresuid(uid, uid, uid) == 0 else { throw SystemFailure(errno: errno) }
        #endif
    }

    #if os(Linux)
    private typealias IDQuery = (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>) -> Int32
    #endif

    /// The real, effective and saved user ids.
    static var userIDs: (UInt32, UInt32, UInt32) {
        #if os(Linux)
        return ids(c_getresuid)
        #else
        return (getuid(), geteuid(), geteuid())
        #endif
    }

    /// The real, effective and saved group ids.
    static var groupIDs: (UInt32, UInt32, UInt32) {
        #if os(Linux)
        return ids(c_getresgid)
        #else
        return (getgid(), getegid(), getegid())
        #endif
    }

    #if os(Linux)
    private static func ids(_ query: IDQuery) -> (UInt32, UInt32, UInt32) {
        var r: UInt32 = 0, e: UInt32 = 0, s: UInt32 = 0
        _ = query(&r, &e, &s)
        return (r, e, s)
    }
    #endif

    static var supplementaryGroupCount: Int32 { getgroups(0, nil) }

    /// Whether `setresuid(0, 0, 0)` works (it must not after the drop).
    static func canRegainRoot() -> Bool {
        #if os(Linux)
        return c_setresuid(0, 0, 0) == 0
        #else
        return false
        #endif
    }

    /// The capability sets (`capget`, version 3: two 32-bit words each).
    static func capabilitySets() -> CapabilitySets? {
        #if os(Linux)
        var header: (UInt32, Int32) = (capabilityVersion3, 0)
        var data = [UInt32](repeating: 0, count: 6)
        let result = withUnsafeMutableBytes(of: &header) { head in
            data.withUnsafeMutableBytes { c_capget(head.baseAddress, $0.baseAddress) }
        }
        guard result == 0 else { return nil }
        func join(_ field: Int) -> UInt64 { UInt64(data[field]) | UInt64(data[field + 3]) << 32 }
        return CapabilitySets(effective: join(0), permitted: join(1), inheritable: join(2))
        #else
        return CapabilitySets(effective: 0, permitted: 0, inheritable: 0)
        #endif
    }

    /// Empties the effective, permitted and inheritable sets (always allowed: it only lowers them).
    static func clearCapabilities() throws {
        #if os(Linux)
        var header: (UInt32, Int32) = (capabilityVersion3, 0)
        var data = [UInt32](repeating: 0, count: 6)
        let result = withUnsafeMutableBytes(of: &header) { head in
            data.withUnsafeMutableBytes { c_capset(head.baseAddress, $0.baseAddress) }
        }
        guard result == 0 else { throw SystemFailure(errno: errno) }
        #endif
    }
}
