// The module's only libc calls, behind one import ladder.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif os(Windows)
import ucrt
#endif

enum Platform {
    /// Allocates `size` bytes of uninitialised memory, or `nil`.
    static func allocate(_ size: Int) -> UnsafeMutableRawPointer? { malloc(size) }

    /// Grows an allocation; large blocks are moved by remapping pages, not copying.
    static func reallocate(_ pointer: UnsafeMutableRawPointer, to size: Int) -> UnsafeMutableRawPointer? {
        realloc(pointer, size)
    }

    static func deallocate(_ pointer: UnsafeMutableRawPointer) { free(pointer) }

    /// Whether `count` bytes at `lhs` and `rhs` are equal.
    @inline(__always)
    static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(lhs, rhs, count) == 0
    }
}
