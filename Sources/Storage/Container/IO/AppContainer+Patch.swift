import Foundation

/// What an in-place patch wrote.
public struct PatchReport: Sendable, Hashable {
    /// The byte ranges rewritten, in file order.
    public var ranges: [Range<UInt64>]
    /// Bytes written (the sum of the ranges).
    public var bytesWritten: UInt64
    /// The file's size before and after.
    public var oldSize: UInt64
    public var newSize: UInt64
}

extension AppContainer {
    /// Makes the file at `path` hold `newContent` by rewriting only the byte
    /// ranges that differ (and truncating or extending at the end), then
    /// flushing. Unlike an atomic write this keeps the inode and costs only
    /// the changed bytes, but a crash midway leaves a mix of old and new
    /// ranges: use it for files with their own recovery (databases, logs).
    ///
    /// Runs of changes closer than `mergeGap` bytes are written as one range,
    /// trading a few unchanged bytes for fewer system calls.
    @discardableResult
    public func patch(_ newContent: Data, at path: String, mergeGap: Int = 64) throws -> PatchReport {
        let handle = try openFile(path, mode: .readWrite)
        defer { handle.close() }
        let old = try read(path)
        let ranges = Self.changedRanges(old: old, new: newContent, mergeGap: max(0, mergeGap))
        var written: UInt64 = 0
        for range in ranges {
            let lower = Int(range.lowerBound)
            let upper = Int(range.upperBound)
            try handle.write(newContent.subdata(in: newContent.startIndex + lower..<newContent.startIndex + upper),
                             at: range.lowerBound)
            written += range.upperBound - range.lowerBound
        }
        if newContent.count < old.count { try handle.truncate(to: UInt64(newContent.count)) }
        try handle.synchronize()
        return PatchReport(ranges: ranges, bytesWritten: written, oldSize: UInt64(old.count), newSize: UInt64(newContent.count))
    }

    /// The ranges of `new` that differ from `old` (bytes past `old`'s end
    /// always differ), with runs closer than `mergeGap` merged.
    static func changedRanges(old: Data, new: Data, mergeGap: Int) -> [Range<UInt64>] {
        var ranges: [Range<UInt64>] = []
        let common = min(old.count, new.count)
        old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes in
                var index = 0
                // Compare eight bytes at a time where both agree; most of a
                // patched file is unchanged.
                while index < common {
                    if index + 8 <= common,
                       oldBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        == newBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                        index += 8
                        continue
                    }
                    if oldBytes[index] == newBytes[index] { index += 1; continue }
                    let start = index
                    var end = index + 1
                    var lastDifference = index
                    while end < common {
                        if oldBytes[end] != newBytes[end] { lastDifference = end }
                        else if end - lastDifference > mergeGap { break }
                        end += 1
                    }
                    ranges.append(UInt64(start)..<UInt64(lastDifference + 1))
                    index = lastDifference + 1
                }
            }
        }
        if new.count > old.count {
            let tail = UInt64(old.count)..<UInt64(new.count)
            if let last = ranges.last, tail.lowerBound - last.upperBound <= UInt64(mergeGap) {
                ranges[ranges.count - 1] = last.lowerBound..<tail.upperBound
            } else {
                ranges.append(tail)
            }
        }
        return ranges
    }
}
