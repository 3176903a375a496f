import Foundation

/// SQLite's write-ahead log (`-wal`), read so that a store can be opened
/// read-only with its committed changes and without SQLite creating the
/// `-shm` index beside it.
///
/// The format (sqlite.org/fileformat2.html#walformat): a 32-byte header —
/// magic `0x377f0682` or `0x377f0683` (the low bit says the checksums read
/// words big-endian), format version 3007000, page size, checkpoint
/// sequence, two salts and a checksum of the first 24 bytes — then frames
/// of a 24-byte header (page number, the database size in pages for a
/// commit frame and 0 otherwise, the two salts, a cumulative checksum)
/// followed by one page. A frame counts only when its salts are the
/// header's and its checksum chains on from the one before; a
/// transaction counts only up to its commit frame.
struct WriteAheadLog {
    /// One committed page image.
    struct Frame {
        var pageNumber: UInt32
        /// Offset of the page's bytes in the log.
        var pageOffset: Int
    }

    let pageSize: Int
    /// The frames of committed transactions, in log order.
    let committedFrames: [Frame]
    /// The database's size in pages after the last commit, or nil when no transaction committed.
    let committedPageCount: UInt32?
    private let bytes: Data

    /// Parses a log. An empty log has no frames.
    ///
    /// - Throws: ``StoreErrorCode/damagedWriteAheadLog`` when the header is
    ///   not a WAL header or its checksum is wrong. Damaged or torn frames
    ///   after the last good commit are not errors: SQLite ignores them too.
    init(_ bytes: Data) throws(StoreError) {
        self.bytes = bytes
        guard !bytes.isEmpty else {
            pageSize = 0
            committedFrames = []
            committedPageCount = nil
            return
        }
        guard bytes.count >= 32 else {
            throw StoreError(.damagedWriteAheadLog, "the -wal file is \(bytes.count) bytes, shorter than its 32-byte header")
        }
        let magic = Self.word(bytes, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else {
            throw StoreError(.damagedWriteAheadLog, "the -wal file's magic is 0x\(String(magic, radix: 16)), not SQLite's")
        }
        let bigEndianChecksums = magic & 1 == 1
        guard Self.word(bytes, 4) == 3_007_000 else {
            throw StoreError(.damagedWriteAheadLog, "the -wal file's format version is \(Self.word(bytes, 4)), not 3007000")
        }
        let size = Int(Self.word(bytes, 8))
        guard size >= 512, size <= 65536, size & (size - 1) == 0 else {
            throw StoreError(.damagedWriteAheadLog, "the -wal file's page size \(size) is not a power of two from 512 to 65536")
        }
        var checksum = Self.checksum(bytes, range: 0..<24, bigEndian: bigEndianChecksums, seed: (0, 0))
        guard checksum == (Self.word(bytes, 24), Self.word(bytes, 28)) else {
            throw StoreError(.damagedWriteAheadLog, "the -wal file's header checksum does not match its contents")
        }
        let salts = (Self.word(bytes, 16), Self.word(bytes, 20))
        pageSize = size

        var frames: [Frame] = []
        var committed: [Frame] = []
        var pageCount: UInt32?
        var offset = 32
        while offset + 24 + size <= bytes.count {
            guard (Self.word(bytes, offset + 8), Self.word(bytes, offset + 12)) == salts else { break }
            checksum = Self.checksum(bytes, range: offset..<offset + 8, bigEndian: bigEndianChecksums, seed: checksum)
            checksum = Self.checksum(bytes, range: offset + 24..<offset + 24 + size, bigEndian: bigEndianChecksums,
                                     seed: checksum)
            guard checksum == (Self.word(bytes, offset + 16), Self.word(bytes, offset + 20)) else { break }
            let pageNumber = Self.word(bytes, offset)
            guard pageNumber > 0 else { break }
            frames.append(Frame(pageNumber: pageNumber, pageOffset: offset + 24))
            let commitSize = Self.word(bytes, offset + 4)
            if commitSize > 0 {
                committed = frames
                pageCount = commitSize
            }
            offset += 24 + size
        }
        committedFrames = committed
        committedPageCount = pageCount
    }

    /// Writes the committed pages over the database image, as a checkpoint
    /// would, and cuts the image to the committed size.
    func apply(to image: inout Data) throws(StoreError) {
        guard let pageCount = committedPageCount else { return }
        let committedSize = Int(pageCount) * pageSize
        if image.count < committedSize { image.append(Data(count: committedSize - image.count)) }
        for frame in committedFrames {
            let start = (Int(frame.pageNumber) - 1) * pageSize
            guard start + pageSize <= committedSize else { continue }
            image.replaceSubrange(start..<start + pageSize, with: bytes[bytes.startIndex + frame.pageOffset..<bytes.startIndex + frame.pageOffset + pageSize])
        }
        if image.count > committedSize { image.removeSubrange(committedSize...) }
    }

    static func word(_ bytes: Data, _ offset: Int) -> UInt32 {
        let base = bytes.startIndex + offset
        return UInt32(bytes[base]) << 24 | UInt32(bytes[base + 1]) << 16 | UInt32(bytes[base + 2]) << 8 | UInt32(bytes[base + 3])
    }

    /// SQLite's WAL checksum: over 32-bit word pairs, cumulative.
    static func checksum(_ bytes: Data, range: Range<Int>, bigEndian: Bool,
                         seed: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = seed
        bytes.withUnsafeBytes { raw in
            var index = range.lowerBound
            while index + 8 <= range.upperBound {
                let x0 = raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)
                let x1 = raw.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self)
                let w0 = bigEndian ? UInt32(bigEndian: x0) : UInt32(littleEndian: x0)
                let w1 = bigEndian ? UInt32(bigEndian: x1) : UInt32(littleEndian: x1)
                s0 = s0 &+ w0 &+ s1
                s1 = s1 &+ w1 &+ s0
                index += 8
            }
        }
        return (s0, s1)
    }
}
