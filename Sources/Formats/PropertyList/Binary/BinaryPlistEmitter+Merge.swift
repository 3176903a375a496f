/// The parallel writer's merge: appends a fragment (the back half, numbered
/// from 0 with its own scalar table) to the front half so that the result is
/// what one emitter would have written for the whole value.
///
/// Both halves number objects in first-occurrence pre-order, and a fragment
/// holds each of its distinct scalars once. Walking the fragment's objects in
/// order, dropping the scalars the front already holds and numbering the
/// rest on from the front's count therefore gives every object the number the
/// serial writer gives it, and the kept objects' bytes follow one another in
/// the serial writer's order.
///
/// The merge runs in three phases: the look-ups in the front's table (only
/// reads, so the two threads split them), the numbering of new objects (a
/// cheap serial pass that also finds where each thread's copy goes), and
/// the copy with references rewritten (two threads again).
extension BinaryPlistEmitter {
    /// Marks a fragment object that the front does not hold.
    static let unnumbered = UInt32.max

    /// Phase 1: for each fragment object in `locals`, stores the front's
    /// number of an equal scalar in `numbers`, or `unnumbered`.
    ///
    /// The look-ups are independent of each other, so the processor overlaps
    /// their cache misses on the table.
    func lookUp(_ fragment: BinaryPlistEmitter, _ locals: Range<Int>, into numbers: UnsafeMutableBufferPointer<UInt32>) {
        let written = output.written
        let source = fragment.output.written
        fragment.offsets.withUnsafeBufferPointer { starts in
            fragment.hashes.withUnsafeBufferPointer { hashes in
                for local in locals {
                    let start = starts[local]
                    let end = local + 1 < starts.count ? starts[local + 1] : source.count
                    guard !Self.isContainer(source[start]) else {
                        numbers[local] = Self.unnumbered
                        continue
                    }
                    let candidate = UnsafeRawBufferPointer(rebasing: source[start..<end])
                    let found = find(candidate, hash: hashes[local], before: written.count, in: written).object
                    numbers[local] = found >= 0 ? UInt32(truncatingIfNeeded: found) : Self.unnumbered
                }
            }
        }
    }

    /// Phase 2: numbers the objects phase 1 left unnumbered, on from this
    /// emitter's count, and says where the copy of the objects from
    /// `copySplit` on starts.
    func numberNewObjects(of fragment: BinaryPlistEmitter, _ numbers: UnsafeMutableBufferPointer<UInt32>,
                          copySplit: Int) -> MergeLayout {
        var layout = MergeLayout(objectCount: offsets.count, bytes: 0, splitObjects: 0, splitBytes: 0)
        let total = fragment.output.count
        fragment.offsets.withUnsafeBufferPointer { starts in
            for local in 0..<starts.count {
                if local == copySplit {
                    layout.splitObjects = layout.objectCount - offsets.count
                    layout.splitBytes = layout.bytes
                }
                guard numbers[local] == Self.unnumbered else { continue }
                numbers[local] = UInt32(truncatingIfNeeded: layout.objectCount)
                layout.objectCount += 1
                layout.bytes += (local + 1 < starts.count ? starts[local + 1] : total) - starts[local]
            }
        }
        return layout
    }

    /// Phase 3: appends the fragment's new objects (those `numbers` gives a
    /// number from this emitter's count on), their references rewritten to
    /// final numbers, the two halves of the fragment on two threads.
    mutating func append(_ fragment: BinaryPlistEmitter, numbers: UnsafeBufferPointer<UInt32>,
                         layout: MergeLayout, copySplit: Int) {
        let firstNew = offsets.count
        let origin = output.count
        let size = referenceSize
        offsets.append(contentsOf: repeatElement(0, count: layout.objectCount - firstNew))
        offsets.withUnsafeMutableBufferPointer { offsets in
            let newOffsets = offsets.baseAddress.map { $0 + firstNew }
            output.appendInPlace(maximumCount: layout.bytes) { out in
                let destination = UnsafeMutableRawPointer(out)
                let part = FragmentCopy(fragment: fragment, numbers: numbers, firstNew: firstNew, referenceSize: size)
                let copy = { (locals: Range<Int>, objects: Int, bytes: Int) in
                    part.copy(locals, to: destination + bytes, origin: origin + bytes, offsets: newOffsets.map { $0 + objects })
                }
                _ = TwoThreads.run({ copy(0..<copySplit, 0, 0) },
                                   { copy(copySplit..<fragment.offsets.count, layout.splitObjects, layout.splitBytes) })
                return layout.bytes
            }
        }
    }

    /// Writes the final numbers of the back half's top-level values into the
    /// root's empty reference slots, which start at byte `slot`.
    mutating func fillRootSlots(from slot: Int, locals: [Int], numbers: UnsafeBufferPointer<UInt32>) {
        var slot = slot
        for local in locals {
            output.storeBigEndian(UInt64(numbers[local]), size: referenceSize, at: slot)
            slot += referenceSize
        }
    }

    /// Whether an object's marker byte is an array's or a dictionary's (the
    /// only containers this writer makes).
    @inline(__always)
    static func isContainer(_ marker: UInt8) -> Bool {
        marker >> 4 == 0xA || marker >> 4 == 0xD
    }
}

/// The outcome of numbering a fragment's new objects.
struct MergeLayout {
    /// Objects in the merged output.
    var objectCount: Int
    /// Bytes of the fragment's new objects.
    var bytes: Int
    /// New objects, and their bytes, before the copy's split point.
    var splitObjects: Int
    var splitBytes: Int
}
