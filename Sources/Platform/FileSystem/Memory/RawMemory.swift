#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The raw-memory calls the codecs' byte buffers and tables need: this
/// module is the package's one system interface, so they live here with the
/// file calls rather than behind a second import ladder.
public enum RawMemory {
    /// Allocates `size` bytes of uninitialised memory, or nil.
    @inlinable
    public static func allocate(_ size: Int) -> UnsafeMutableRawPointer? { malloc(size) }

    /// Grows an allocation; large blocks are moved by remapping pages, not copying.
    @inlinable
    public static func reallocate(_ pointer: UnsafeMutableRawPointer, to size: Int) -> UnsafeMutableRawPointer? {
        realloc(pointer, size)
    }

    @inlinable
    public static func deallocate(_ pointer: UnsafeMutableRawPointer) { free(pointer) }

    /// Whether `count` bytes at `lhs` and `rhs` are equal.
    @inlinable @inline(__always)
    public static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(lhs, rhs, count) == 0
    }

    /// The size of a transparent huge page on the platforms that have them.
    public static let hugePageSize = 2 << 20

    /// Allocates `size` zeroed bytes for a large table that is accessed at
    /// random, or nil. On Linux the block is aligned to 2 MiB and advised
    /// for transparent huge pages: random probes into a many-megabyte table
    /// otherwise miss the TLB on nearly every access, which costs most in a
    /// virtual machine (nested page walks).
    public static func allocateZeroedTable(_ size: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
        if size >= hugePageSize {
            var pointer: UnsafeMutableRawPointer?
            guard posix_memalign(&pointer, hugePageSize, size) == 0, let pointer else { return nil }
            _ = madvise(pointer, size, MADV_HUGEPAGE)
            memset(pointer, 0, size)
            return pointer
        }
        #endif
        return calloc(1, size)
    }
}
