// `/proc/<pid>/stat`, read with plain `read` calls: this module has no
// Foundation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `/proc/<pid>/stat` says of a process: its state letter and its start
/// time in clock ticks since boot, which tells a process from a later one
/// that reused its id.
public struct ProcessStat: Sendable, Hashable {
    /// The state letter (field 3): `R`, `S`, `Z` for a zombie, `X` for dead…
    public var state: Character
    /// Clock ticks since boot when the process started (field 22).
    public var startTime: UInt64

    /// The facts of the process `pid`; nil where it has no procfs entry (it
    /// is gone, or the system has no `/proc`).
    public static func read(_ pid: Int32) -> ProcessStat? {
        guard pid > 0, let bytes = ProcessControl.readSmallFile("/proc/\(pid)/stat") else { return nil }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// Parses the text of a `stat` file.
    static func parse(_ text: String) -> ProcessStat? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name, which may itself hold spaces and
        // parentheses: the state is the first of them, the start time the 20th.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first,
              let start = UInt64(fields[19].trimmingNewline) else { return nil }
        return ProcessStat(state: state, startTime: start)
    }
}

extension ProcessControl {
    /// The start time of `pid` in clock ticks since boot; nil where `/proc` cannot tell.
    public static func startTime(of pid: Int32) -> UInt64? { ProcessStat.read(pid)?.startTime }

    /// The whole of a small kernel-made file (procfs reports a size of 0,
    /// so it is read to its end); nil when it cannot be opened.
    static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readToEnd(fd)
    }
}

private extension Substring {
    var trimmingNewline: Substring { last == "\n" ? dropLast() : self }
}
