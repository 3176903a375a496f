import Foundation

/// A plan's entries as one byte string: per entry the kind (one byte), the
/// size (8 bytes) and permissions (4 bytes), little-endian, then the path's
/// UTF-8 and a NUL (a path never holds one).
enum PackedEntries {
    private static let kinds: [MigrationPlan.Entry.Kind] = [.file, .link, .directory, .other]

    static func pack(_ entries: [MigrationPlan.Entry]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 48)
        for entry in entries {
            bytes.append(UInt8(kinds.firstIndex(of: entry.kind) ?? 3))
            withUnsafeBytes(of: entry.size.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: entry.permissions.littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: entry.path.utf8)
            bytes.append(0)
        }
        return Data(bytes)
    }

    /// The entries, or nil when the bytes are not a packed list.
    static func unpack(_ data: Data) -> [MigrationPlan.Entry]? {
        let bytes = [UInt8](data)
        var entries: [MigrationPlan.Entry] = []
        var index = 0
        while index < bytes.count {
            guard index + 13 < bytes.count, Int(bytes[index]) < kinds.count else { return nil }
            let kind = kinds[Int(bytes[index])]
            var size: UInt64 = 0
            for offset in 0..<8 { size |= UInt64(bytes[index + 1 + offset]) << (8 * offset) }
            var permissions: UInt32 = 0
            for offset in 0..<4 { permissions |= UInt32(bytes[index + 9 + offset]) << (8 * offset) }
            let start = index + 13
            guard let end = bytes[start...].firstIndex(of: 0), end > start else { return nil }
            entries.append(MigrationPlan.Entry(path: String(decoding: bytes[start..<end], as: UTF8.self), kind: kind,
                                               size: size, permissions: permissions))
            index = end + 1
        }
        return entries
    }
}
