#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystemPaths {
    /// Whether this process may execute the file at `path` (`access(X_OK)`,
    /// links followed), as a launcher checks a program before spawning it.
    public static func isExecutable(atPath path: String) -> Bool {
        access(path, X_OK) == 0
    }
}
