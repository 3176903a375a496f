import Foundation

/// Fills a small file system (a ``PrivateMount``'s tmpfs), so that the next
/// write there fails with `ENOSPC`.
public enum DiskFiller {
    /// Appends zeros to `<directory>/<name>` until the file system refuses
    /// them, in ever smaller pieces down to a byte, so that no block is left
    /// for another file. Returns the bytes written.
    @discardableResult
    public static func fill(_ directory: String, name: String = "filler") -> Int {
        let path = directory + "/" + name
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let file = FileHandle(forWritingAtPath: path) else { return 0 }
        defer { try? file.close() }
        _ = try? file.seekToEnd()
        var written = 0
        for piece in [65_536, 4_096, 512, 1] {
            let zeros = Data(count: piece)
            while (try? file.write(contentsOf: zeros)) != nil { written += piece }
        }
        return written
    }
}
