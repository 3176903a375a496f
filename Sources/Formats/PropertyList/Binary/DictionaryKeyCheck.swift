import OrderedCollections

/// Decides whether a dictionary's keys are unique without building a hashed
/// dictionary, so the reader can adopt its key and value arrays directly.
///
/// Only all-ASCII keys take the fast path: for them byte equality is exactly
/// Swift's string equality. Other keys (where Swift compares canonical
/// equivalents as equal) report "not known unique" and the caller inserts
/// them one by one.
enum DictionaryKeyCheck {
    /// A 32-bit hash of raw bytes (FNV-1a variant over 8-byte words).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            hash ^= hash >> 29
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        hash ^= hash >> 32
        return UInt32(truncatingIfNeeded: hash)
    }

    /// Whether `keys` are known to be pairwise distinct. `asciiHashes[i]` is
    /// the hash of key `i` with the low bit set, or 0 if it is not ASCII.
    static func areUnique(_ keys: ContiguousArray<String>, asciiHashes: [UInt32], scratch table: inout [Int32]) -> Bool {
        let count = keys.count
        if count < 2 { return true }
        if asciiHashes.contains(0) { return false }
        if count <= 16 {
            for first in 0..<(count - 1) {
                for second in (first + 1)..<count where asciiHashes[first] == asciiHashes[second] {
                    if keys[first] == keys[second] { return false }
                }
            }
            return true
        }
        var size = 32
        while size < count * 2 { size <<= 1 }
        if table.count < size { table = [Int32](repeating: -1, count: size) }
        let mask = size - 1
        defer { for slot in 0..<size { table[slot] = -1 } }
        for index in 0..<count {
            var slot = Int(asciiHashes[index] >> 1) & mask
            while table[slot] >= 0 {
                let other = Int(table[slot])
                if asciiHashes[other] == asciiHashes[index], keys[other] == keys[index] { return false }
                slot = (slot + 1) & mask
            }
            table[slot] = Int32(index)
        }
        return true
    }

    /// A dictionary of `keys` and `values` (equal counts). Keys known unique
    /// (see ``areUnique(_:asciiHashes:scratch:)``) are adopted as they are;
    /// otherwise a repeated key keeps its first position and its last value,
    /// as CF does.
    static func dictionary(keys: ContiguousArray<String>, values: ContiguousArray<PropertyListValue>,
                           keysAreUnique: Bool) -> OrderedDictionary<String, PropertyListValue> {
        if keysAreUnique { return OrderedDictionary(uncheckedUniqueKeys: keys, values: values) }
        var merged = OrderedDictionary<String, PropertyListValue>(minimumCapacity: keys.count)
        for (key, value) in zip(keys, values) { merged[key] = value }
        return merged
    }
}
