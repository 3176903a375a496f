import Foundation

/// The benchmark's data set: one app container whose Documents hold 10,000
/// files in 100 directories, sizes uniform in 4–196 KiB (≈ 1 GB), random
/// bytes that do not compress; the shape of the notes' `bench/gen.py` (§6.2).
struct BenchmarkTree {
    let root: URL
    let fileCount: Int
    static let directoryCount = 100

    var documents: URL { root.appendingPathComponent("Documents") }

    func path(of index: Int) -> URL {
        documents.appendingPathComponent(String(format: "d%02d/f%05d.bin", index % Self.directoryCount, index))
    }

    /// Generates the tree unless a complete one (marked by `.complete`) is
    /// already there, so repeated runs reuse it.
    func generate() throws -> Int64 {
        // The marker sits beside the tree, not in it, so it is not backed up.
        let marker = root.deletingLastPathComponent().appendingPathComponent("tree-complete-\(fileCount)")
        let files = FileManager.default
        if files.fileExists(atPath: marker.path) { return try totalBytes() }
        try? files.removeItem(at: root)
        try? files.removeItem(at: marker)
        for directory in ["Library/Caches", "Library/Preferences", "tmp"] {
            try files.createDirectory(at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        for index in 0..<Self.directoryCount {
            try files.createDirectory(at: documents.appendingPathComponent(String(format: "d%02d", index)), withIntermediateDirectories: true)
        }
        var generator = XorShift(seed: 0x5EED)
        var total: Int64 = 0
        var buffer = [UInt64](repeating: 0, count: 196 * 1024 / 8)
        for index in 0..<fileCount {
            let size = 4096 + Int(generator.next() % UInt64(192 * 1024 + 1))
            for word in 0..<(size + 7) / 8 { buffer[word] = generator.next() }
            let data = buffer.withUnsafeBytes { Data($0.prefix(size)) }
            try data.write(to: path(of: index))
            total += Int64(size)
        }
        try Data().write(to: marker)
        return total
    }

    func totalBytes() throws -> Int64 {
        var total: Int64 = 0
        for index in 0..<fileCount {
            total += Int64(try FileManager.default.attributesOfItem(atPath: path(of: index).path)[.size] as? Int ?? 0)
        }
        return total
    }

    /// Overwrites 4 KiB in place in 1 % of the files (chosen with a fixed
    /// seed; sizes unchanged), as the notes' `bench/mutate.py` does.
    func mutateOnePercent(round: UInt64) throws -> Int {
        var generator = XorShift(seed: 0xC4A46E + round)
        var chosen = Set<Int>()
        while chosen.count < max(1, fileCount / 100) { chosen.insert(Int(generator.next() % UInt64(fileCount))) }
        let patch = (0..<512).map { _ in generator.next() }.withUnsafeBytes { Data($0) }
        for index in chosen.sorted() {
            let handle = try FileHandle(forUpdating: path(of: index))
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: patch)
            try handle.close()
        }
        return chosen.count
    }
}

/// A fast deterministic generator (xorshift64*); the bytes only need to be incompressible.
struct XorShift {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E3779B97F4A7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545F4914F6CDD1D
    }
}
