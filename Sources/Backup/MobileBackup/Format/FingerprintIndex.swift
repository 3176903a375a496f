import Foundation

/// What the writer remembers about each payload it stored, so the next
/// backup can tell an unchanged file without reading it: size, modification
/// and status-change times to the nanosecond, inode, and (plain backups
/// only) the SHA-1 of the contents.
///
/// MBFile keeps times in whole seconds, too coarse to notice a file
/// rewritten within the same second, so this sits beside Manifest.db in its
/// own file (`Sandbox.fingerprints`); iOS readers ignore it, and a backup
/// without it (any real one) is simply copied in full the next time.
struct FileFingerprint: Sendable, Hashable {
    var size: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64
    var inode: UInt64
    /// All zeros when not recorded.
    var digest: [UInt8]
}

enum FingerprintIndex {
    static let fileName = "Sandbox.fingerprints"
    private static let magic: [UInt8] = Array("SBFP0001".utf8)
    private static let recordSize = 20 + 8 * 4 + 20

    static func encode(_ entries: [String: FileFingerprint]) -> Data {
        var out = [UInt8]()
        out.reserveCapacity(magic.count + entries.count * recordSize)
        out += magic
        for (fileID, print) in entries {
            guard let raw = rawFileID(fileID) else { continue }
            out += raw
            append(UInt64(bitPattern: print.size), to: &out)
            append(UInt64(bitPattern: print.modifiedNanoseconds), to: &out)
            append(UInt64(bitPattern: print.changedNanoseconds), to: &out)
            append(print.inode, to: &out)
            out += print.digest.count == 20 ? print.digest : [UInt8](repeating: 0, count: 20)
        }
        return Data(out)
    }

    /// The entries of an index file; a missing, foreign or damaged file
    /// gives an empty index (so nothing is reused and everything is copied).
    static func decode(_ data: Data) -> [String: FileFingerprint] {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic,
              (bytes.count - magic.count) % recordSize == 0 else { return [:] }
        var entries: [String: FileFingerprint] = [:]
        entries.reserveCapacity((bytes.count - magic.count) / recordSize)
        var offset = magic.count
        while offset < bytes.count {
            let fileID = BackupFileID.hex(bytes[offset..<offset + 20])
            func word(_ index: Int) -> UInt64 {
                let start = offset + 20 + index * 8
                var value: UInt64 = 0
                for shift in 0..<8 { value |= UInt64(bytes[start + shift]) << (8 * UInt64(shift)) }
                return value
            }
            entries[fileID] = FileFingerprint(size: Int64(bitPattern: word(0)), modifiedNanoseconds: Int64(bitPattern: word(1)),
                                              changedNanoseconds: Int64(bitPattern: word(2)), inode: word(3),
                                              digest: Array(bytes[offset + 52..<offset + 72]))
            offset += recordSize
        }
        return entries
    }

    private static func append(_ value: UInt64, to out: inout [UInt8]) {
        for shift in 0..<8 { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    private static func rawFileID(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 40 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(20)
        var index = 0
        while index < 40 {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: return digit - 48
        case 97...102: return digit - 87
        case 65...70: return digit - 55
        default: return nil
        }
    }
}
