// The test target's only libc names, behind one import ladder.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum LibC {
    /// The errors by which the kernel refuses an access: Landlock answers
    /// `EACCES`, or `EXDEV` for links and renames across hierarchies.
    static let denials: Set<Int32> = [EACCES, EPERM, EXDEV]
    static let permissionDenied = EACCES
    static let terminateSignal = SIGTERM
    static let textFileBusy = ETXTBSY
}
