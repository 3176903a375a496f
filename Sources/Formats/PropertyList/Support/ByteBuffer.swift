import FileSystem
import Foundation

/// A growable byte buffer for the writers. It owns one `malloc` block that
/// grows by `realloc` (which remaps large blocks instead of copying them)
/// and is handed to `Data` without a copy at the end.
///
/// Copies share the storage: a buffer is built by one writer and used
/// linearly, never copied to diverge.
struct ByteBuffer {
    final class Storage {
        // Unchecked: a buffer has one writer at a time (see above), and
        // the dynamic exclusivity checks of a class's properties would
        // otherwise cost three runtime calls per appended byte or run.
        @exclusivity(unchecked) var base: UnsafeMutableRawPointer
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var capacity: Int
        var ownsMemory = true

        init(capacity: Int) {
            self.capacity = Swift.max(capacity, 64)
            // Allocation failure here is an out-of-memory condition, not bad input.
            base = RawMemory.allocate(self.capacity) ?? UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
        }

        deinit { if ownsMemory { RawMemory.deallocate(base) } }

        @inline(never)
        func grow(toHold needed: Int) {
            var newCapacity = capacity * 2
            while newCapacity < needed { newCapacity *= 2 }
            if let moved = RawMemory.reallocate(base, to: newCapacity) {
                base = moved
            } else {
                let fresh = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
                fresh.copyMemory(from: base, byteCount: count)
                RawMemory.deallocate(base)
                base = fresh
            }
            capacity = newCapacity
        }
    }

    let storage: Storage

    init(capacity: Int) { storage = Storage(capacity: capacity) }

    var count: Int { storage.count }

    /// A copy of the bytes written so far.
    var bytes: [UInt8] {
        Array(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
    }

    /// The last byte written.
    var last: UInt8? { storage.count > 0 ? storage.base.load(fromByteOffset: storage.count - 1, as: UInt8.self) : nil }

    mutating func removeLast() { if storage.count > 0 { storage.count -= 1 } }

    /// Drops everything written after the first `count` bytes.
    @inline(__always) mutating func truncate(to count: Int) {
        if count < storage.count { storage.count = Swift.max(count, 0) }
    }

    /// The bytes written so far, valid until the next append.
    @inline(__always) var written: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage.base, count: storage.count)
    }

    /// Overwrites `size` bytes (1…8) at `offset`, which must already be written, with `value` big-endian.
    @inline(__always) mutating func storeBigEndian(_ value: UInt64, size: Int, at offset: Int) {
        var shift = (size - 1) * 8
        var index = offset
        while shift >= 0 {
            storage.base.storeBytes(of: UInt8(truncatingIfNeeded: value >> UInt64(shift)), toByteOffset: index, as: UInt8.self)
            shift -= 8
            index += 1
        }
    }

    /// Copies `count` written bytes from offset `source` to offset
    /// `destination`, both already written and not overlapping.
    @inline(__always) mutating func copyWritten(from source: Int, count: Int, to destination: Int) {
        (storage.base + destination).copyMemory(from: storage.base + source, byteCount: count)
    }

    /// Makes room for `extra` more bytes.
    @inline(__always) mutating func reserve(_ extra: Int) {
        if storage.count + extra > storage.capacity { storage.grow(toHold: storage.count + extra) }
    }

    /// The bytes as `Data`, without copying. The buffer is empty afterwards.
    mutating func takeData() -> Data {
        let data: Data
        if storage.count == 0 {
            data = Data()
        } else {
            storage.ownsMemory = false
            data = Data(bytesNoCopy: storage.base, count: storage.count, deallocator: .custom { pointer, _ in RawMemory.deallocate(pointer) })
        }
        self = ByteBuffer(capacity: 64)
        return data
    }

    /// Lets `body` write up to `maximumCount` bytes in place; it returns how
    /// many it wrote.
    @inline(__always)
    mutating func appendInPlace(maximumCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximumCount)
        let start = (storage.base + storage.count).assumingMemoryBound(to: UInt8.self)
        storage.count += body(start)
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        storage.base.storeBytes(of: byte, toByteOffset: storage.count, as: UInt8.self)
        storage.count += 1
    }

    @inline(__always) mutating func append(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        let count = raw.count
        reserve(count)
        let target = storage.base + storage.count
        // Short runs (tags, keys, numbers: most appends) copied with two
        // overlapping loads and stores instead of a call to `memmove`.
        if count >= 8, count <= 16 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4, count < 8 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count < 4 {
            for index in 0..<count {
                target.storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
            }
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
        storage.count += count
    }

    @inline(__always) mutating func append(_ string: StaticString) {
        append(UnsafeRawBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    /// Appends `count` copies of `byte`.
    @inline(__always) mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        if count <= 8 {
            // One store (indentation: a few tabs) instead of a call to `memset`;
            // the bytes past `count` are in the reserved room and not counted.
            reserve(8)
            (storage.base + storage.count).storeBytes(of: UInt64(byte) &* 0x0101_0101_0101_0101, as: UInt64.self)
            storage.count += count
            return
        }
        reserve(count)
        (storage.base + storage.count).initializeMemory(as: UInt8.self, repeating: byte, count: count)
        storage.count += count
    }

    /// Appends `value` big-endian in `size` bytes (1…8).
    @inline(__always) mutating func appendBigEndian(_ value: UInt64, size: Int) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// Appends the UTF-8 bytes of `string`.
    @inline(__always) mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends an integer in decimal.
    mutating func appendDecimal(_ value: PropertyListInteger) {
        if value.isNegative {
            append(UInt8(ascii: "-"))
            // The magnitude of a two's-complement pattern, Int64.min included.
            appendDecimal(0 &- value.bitPattern)
        } else {
            appendDecimal(value.bitPattern)
        }
    }

    /// Appends an unsigned integer in decimal.
    mutating func appendDecimal(_ value: UInt64) {
        if value < 10 {
            append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes of scratch, enough for 20 digits
        withUnsafeMutableBytes(of: &digits) { scratch in
            var remaining = value
            var position = scratch.count
            while remaining > 0 {
                position -= 1
                scratch[position] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
                remaining /= 10
            }
            append(UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }
}
