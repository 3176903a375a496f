import Dispatch
import Foundation

/// The binary writer's two-thread path for large values.
///
/// The root's children are cut in two (see ``RootSplit``). The front half is
/// an ordinary emitter that writes the root, its keys and the first children
/// but leaves the other children's reference slots empty; the back half, on
/// the other thread, writes the remaining children as a fragment with its own
/// numbering and scalar table. The merge then appends the fragment to the
/// front (see BinaryPlistEmitter+Merge.swift). The output is byte for byte
/// what `writeSerially` writes: the tests hold the two paths to that.
extension BinaryPropertyListWriter {
    /// Encodes `value` on two threads, or returns nil if its root has fewer
    /// than two children to share out.
    func writeInParallel(_ value: PropertyListValue, census: PropertyListCensus) throws -> Data? {
        guard let split = RootSplit(value, census: census) else { return nil }
        let referenceSize = BinaryPlistEmitter.byteWidth(UInt64(census.objects))
        let halves = Halves()
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                halves.front = Result {
                    var front = BinaryPlistEmitter(referenceSize: referenceSize, isFragment: false,
                                                   share: .front(census, backFraction: split.backFraction))
                    let slot = try front.emitRoot(of: split)
                    return (front, slot)
                }
            } else {
                halves.back = Result {
                    var back = BinaryPlistEmitter(referenceSize: referenceSize, isFragment: true,
                                                  share: .back(census, backFraction: split.backFraction))
                    let locals = try back.emitFragment(split.values[split.boundary...])
                    return (back, locals)
                }
            }
        }
        // concurrentPerform returns only after both parts ran, so neither is
        // nil here; the serial writer is the answer should that ever change.
        guard let frontResult = halves.front, let backResult = halves.back else {
            return try writeSerially(value, census: census, referenceSize: referenceSize)
        }
        // The front comes first in object order, so its error is the one the
        // serial writer would have met first.
        var (front, firstEmptySlot) = try frontResult.get()
        let (back, locals) = try backResult.get()
        let (numbers, objectCount) = front.numbering(of: back)
        let exactSize = BinaryPlistEmitter.byteWidth(UInt64(objectCount))
        guard exactSize == referenceSize else {
            // The census overestimated enough to change the reference width;
            // the serial writer with the exact width writes what it would
            // have written after its own second pass.
            return try writeSerially(value, census: census, referenceSize: exactSize)
        }
        front.append(back, numbers: numbers)
        front.fillRootSlots(from: firstEmptySlot, locals: locals, numbers: numbers)
        return front.finish()
    }
}

/// What each of the two parts of `writeInParallel` produced. Emitters are not
/// `Sendable` (they own class-backed buffers), hence the unchecked box: each
/// part writes only its own property, and `concurrentPerform` returns only
/// after both parts finished, so the reads after it see both writes and
/// nothing is touched concurrently.
private final class Halves: @unchecked Sendable {
    var front: Result<(BinaryPlistEmitter, Int), any Error>?
    var back: Result<(BinaryPlistEmitter, [Int]), any Error>?
}
