// The helper's only libc calls, behind one import ladder.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Platform {
    /// Limits the size of files this process may write (RLIMIT_FSIZE) and
    /// ignores SIGXFSZ, so going over the limit is an EFBIG error instead
    /// of the signal's default action (killing the process).
    static func limitFileSize(to bytes: UInt64) -> Bool {
        _ = signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        #if canImport(Glibc)
        return setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0
        #else
        return setrlimit(RLIMIT_FSIZE, &limit) == 0
        #endif
    }
}
