#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed process-control or Landlock system call: the `errno` it left.
///
/// The process calls of ``ProcessControl`` throw it; callers turn it into
/// their own typed error (``LaunchError``, a device error) with the reason
/// ``description`` gives.
public struct SystemFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system's error number.
    public var errno: Int32

    /// Wraps an error number.
    public init(errno: Int32) { self.errno = errno }

    /// The system's sentence for the error number (`strerror`).
    public var description: String { String(cString: strerror(errno)) }

    /// The calling thread's current `errno`.
    static var current: SystemFailure { SystemFailure(errno: lastErrno()) }
}

/// `errno`, read outside `SystemFailure` (whose member of the same name shadows it).
@inline(__always)
func lastErrno() -> Int32 { errno }
