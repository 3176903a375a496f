import FileSystem

/// A fixed-size table of integer words, zero at creation, for hash tables
/// probed at random. The words are reached through a raw pointer (no
/// copy-on-write or bounds checks in the probe loop), and large tables sit
/// on transparent huge pages where the platform has them (see
/// `RawMemory.allocateZeroedTable(_:)`): with 4 KiB pages, a TLB miss per
/// probe added to the cache miss.
final class ZeroedTable<Word: FixedWidthInteger> {
    let words: UnsafeMutablePointer<Word>
    let count: Int

    /// Creates a table of `count` zero words (`count` > 0).
    init(count: Int) {
        self.count = count
        let size = count * MemoryLayout<Word>.stride
        // Allocation failure is an out-of-memory condition, not bad input.
        let raw = RawMemory.allocateZeroedTable(size) ?? {
            let fallback = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            fallback.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            return fallback
        }()
        words = raw.bindMemory(to: Word.self, capacity: count)
    }

    deinit { RawMemory.deallocate(UnsafeMutableRawPointer(words)) }
}
