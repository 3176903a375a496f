import FileSystem
import Foundation

/// Makes a document in numbered pieces on two threads and hands each
/// piece's bytes on in order, as soon as every piece before it has been
/// handed on.
///
/// Why: the consumer (a file write, say) then runs on one thread while the
/// other still makes pieces, instead of after the whole document, and a
/// piece's buffer is reused once consumed, so a document is written from
/// a few small buffers that stay in the cache instead of one large one
/// whose every page is new.
///
/// Pieces are claimed in order, and one thread at a time consumes. The
/// error thrown is the one a single thread making the pieces in order meets
/// first: the lowest-numbered failing piece's (every piece before it made);
/// else the consumer's. No piece after a failed one is consumed.
enum OrderedPieces {
    /// Makes pieces `0..<count` with `make` (which appends piece `i` to an
    /// empty buffer of `capacity` bytes or more) and passes them to
    /// `consume` in order; throws as the type describes.
    static func run(count: Int, capacity: Int, make: (Int, inout ByteBuffer) throws -> Void,
                    consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        try withoutActuallyEscaping(make) { make in
            try withoutActuallyEscaping(consume) { consume in
                let state = PieceState(count: count, capacity: capacity, make: make, consume: consume)
                _ = TwoThreads.run({ state.work() }, { state.work() })
                if let failure = state.failure { throw failure }
                if let failure = state.consumerFailure { throw failure }
            }
        }
    }
}

/// The pieces' shared state, guarded by `lock`. `@unchecked Sendable`:
/// every field is read and written under the lock, a buffer belongs to
/// one thread at a time (the maker, then the one consumer), and `make` and
/// `consume` are the caller's to make safe for use from two threads, one
/// call of `consume` at a time.
private final class PieceState: @unchecked Sendable {
    let count: Int
    let capacity: Int
    let make: (Int, inout ByteBuffer) throws -> Void
    let consume: (UnsafeRawBufferPointer) throws -> Void
    let lock = Locked(())
    /// The next piece to claim.
    var next = 0
    /// Made pieces waiting for their turn, by number.
    var made: [ByteBuffer?]
    /// The next piece to consume, and whether a thread is consuming.
    var nextToConsume = 0
    var consuming = false
    /// Consumed buffers, for reuse.
    var spare: [ByteBuffer] = []
    /// The lowest failing piece (`count` while none failed) and its error.
    var failedPiece: Int
    var failure: (any Error)?
    var consumerFailure: (any Error)?

    init(count: Int, capacity: Int, make: @escaping (Int, inout ByteBuffer) throws -> Void,
         consume: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.count = count
        self.capacity = capacity
        self.make = make
        self.consume = consume
        made = [ByteBuffer?](repeating: nil, count: count)
        failedPiece = count
    }

    /// One thread's share: claim the next piece, make it, and consume
    /// whatever is next in order, until no piece is left to claim.
    func work() {
        while let (piece, reused) = lock.withLock({ _ in claim() }) {
            var buffer = reused
            buffer.truncate(to: 0)
            do {
                try make(piece, &buffer)
            } catch {
                lock.withLock { _ in
                    if piece < failedPiece { (failedPiece, failure) = (piece, error) }
                }
                continue
            }
            consumeInOrder(after: piece, buffer)
        }
    }

    /// The next piece to make and a buffer for it, or nil when none is left
    /// (or one failed). Call with the lock held.
    private func claim() -> (Int, ByteBuffer)? {
        guard next < failedPiece, consumerFailure == nil else { return nil }
        let piece = next
        next += 1
        return (piece, spare.popLast() ?? ByteBuffer(capacity: capacity))
    }

    /// Files made piece `piece`, then consumes the made pieces that are next
    /// in order, unless another thread is at it (it will find them).
    private func consumeInOrder(after piece: Int, _ buffer: ByteBuffer) {
        var ready = lock.withLock { _ in
            made[piece] = buffer
            return takeNextToConsume()
        }
        while let buffer = ready {
            var thrown: (any Error)?
            do { try consume(buffer.written) } catch { thrown = error }
            ready = lock.withLock { _ in
                consuming = false
                nextToConsume += 1
                spare.append(buffer)
                if let thrown { consumerFailure = thrown }
                return takeNextToConsume()
            }
        }
    }

    /// The next piece in order, taken for this thread to consume, unless
    /// another thread consumes, a piece failed or it is not made yet. Call
    /// with the lock held.
    private func takeNextToConsume() -> ByteBuffer? {
        guard !consuming, consumerFailure == nil, nextToConsume < failedPiece, let buffer = made[nextToConsume] else {
            return nil
        }
        made[nextToConsume] = nil
        consuming = true
        return buffer
    }
}
