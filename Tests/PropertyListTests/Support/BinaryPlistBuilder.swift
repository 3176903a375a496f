import Foundation

/// Builds binary property lists object by object, for hostile and
/// hand-laid-out inputs the writer would never produce.
struct BinaryPlistBuilder {
    var objects: [[UInt8]] = []
    var refSize = 1
    var offsetSize = 1
    var top = 0

    mutating func add(_ bytes: [UInt8]) -> Int {
        objects.append(bytes)
        return objects.count - 1
    }

    func build() -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let tableOffset = out.count
        for offset in offsets { out += Self.bigEndian(UInt64(offset), size: offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += Self.bigEndian(UInt64(objects.count), size: 8)
        out += Self.bigEndian(UInt64(top), size: 8)
        out += Self.bigEndian(UInt64(tableOffset), size: 8)
        return Data(out)
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// The "billion laughs" file: object i is `[i+1, i+1]`, the last is an integer,
    /// so the tree has 2^levels leaves in a few hundred bytes.
    static func sharedReferenceBomb(levels: Int) -> Data {
        var builder = BinaryPlistBuilder()
        builder.refSize = levels < 255 ? 1 : 2
        builder.offsetSize = 2
        for level in 0..<levels {
            let reference = bigEndian(UInt64(level + 1), size: builder.refSize)
            _ = builder.add([0xA2] + reference + reference)
        }
        _ = builder.add([0x10, 0x2A])
        return builder.build()
    }

    /// `levels` arrays nested one in the next around `true`, with references
    /// of `referenceSize` bytes and 4-byte offsets.
    static func nestedArrays(levels: Int, referenceSize: Int) -> Data {
        var builder = BinaryPlistBuilder()
        builder.refSize = referenceSize
        builder.offsetSize = 4
        for level in 0..<levels { _ = builder.add([0xA1] + bigEndian(UInt64(level + 1), size: referenceSize)) }
        _ = builder.add([0x09])
        return builder.build()
    }
}
