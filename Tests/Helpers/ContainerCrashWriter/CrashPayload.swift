import Foundation

/// The content the crash writer writes: a header naming the generation, a
/// body of one byte value derived from it, and a trailer, so a reader can
/// tell a complete file from a torn one. The test checks files with the same
/// rules (it has its own copy of `isComplete`, kept in step with this one).
enum CrashPayload {
    static func make(generation: UInt64, size: Int) -> Data {
        let header = Data("GEN \(generation)\n".utf8)
        let trailer = Data("END \(generation)\n".utf8)
        let body = Data(repeating: UInt8(truncatingIfNeeded: generation % 251 + 1), count: max(0, size - header.count - trailer.count))
        return header + body + trailer
    }
}
