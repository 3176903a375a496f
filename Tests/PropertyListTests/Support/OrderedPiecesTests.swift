import Foundation
import Testing
@testable import PropertyList

/// `OrderedPieces` makes pieces on two threads and must hand them on in
/// order, one at a time, and fail as one thread making them in order would.
@Suite struct OrderedPiecesTests {
    /// Piece `i` is its number in decimal and a newline; uneven work per
    /// piece mixes the order the two threads finish in.
    static func make(_ piece: Int, _ buffer: inout ByteBuffer) {
        var spin = 0
        for step in 0..<(piece % 7) * 2000 { spin &+= step }
        buffer.appendDecimal(UInt64(piece))
        buffer.append(spin == -1 ? 0x00 : 0x0A) // uses the spin, so it is not optimized away
    }

    @Test func piecesAreConsumedInOrderOneAtATime() throws {
        for count in [1, 2, 3, 100, 5000] {
            var text = Data()
            let busy = NSLock()
            try OrderedPieces.run(count: count, capacity: 8, make: Self.make) { bytes in
                #expect(busy.try(), "two consumers at once")
                text.append(contentsOf: bytes)
                busy.unlock()
            }
            #expect(String(decoding: text, as: UTF8.self) == (0..<count).map { "\($0)\n" }.joined(), "\(count) pieces")
        }
    }

    @Test func theLowestFailingPiecesErrorWinsAndNothingAfterItIsConsumed() throws {
        struct Failed: Error, Equatable { let piece: Int }
        for failing in [[0], [3], [3, 2], [999], [10, 500, 11]] {
            var consumed: [Int] = []
            #expect(throws: Failed(piece: failing.min() ?? 0)) {
                try OrderedPieces.run(count: 1000, capacity: 8, make: { piece, buffer in
                    if failing.contains(piece) { throw Failed(piece: piece) }
                    Self.make(piece, &buffer)
                }, consume: { bytes in
                    consumed.append(Int(String(decoding: bytes.dropLast(), as: UTF8.self)) ?? -1)
                })
            }
            #expect(consumed == Array(consumed.indices), "failing \(failing)")
            #expect(consumed.count == failing.min() ?? 0, "failing \(failing)")
        }
    }

    @Test func aConsumersErrorStopsTheRun() throws {
        struct Full: Error, Equatable {}
        var calls = 0
        #expect(throws: Full()) {
            try OrderedPieces.run(count: 1000, capacity: 8, make: Self.make) { _ in
                calls += 1
                if calls == 5 { throw Full() }
            }
        }
        #expect(calls == 5)
        // A piece that fails comes first: the one-thread order makes it before writing.
        struct Failed: Error, Equatable {}
        #expect(throws: Failed()) {
            try OrderedPieces.run(count: 1000, capacity: 8, make: { piece, buffer in
                if piece == 0 { throw Failed() }
                Self.make(piece, &buffer)
            }, consume: { _ in throw Full() })
        }
    }
}
