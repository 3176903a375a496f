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
extension BinaryPlistEmitter {
    /// The final number of each of `fragment`'s objects, by local number,
    /// and how many objects the merged output will have.
    ///
    /// A fragment scalar equal to one of this emitter's takes that number;
    /// every other object takes the next new one. The look-ups only read, and
    /// each is independent of the last, so the processor overlaps their cache
    /// misses; that is why they run in a pass of their own before any copying.
    func numbering(of fragment: BinaryPlistEmitter) -> (numbers: [UInt32], objectCount: Int) {
        let written = output.written
        let source = fragment.output.written
        let localCount = fragment.offsets.count
        var next = offsets.count
        let numbers = [UInt32](unsafeUninitializedCapacity: localCount) { numbers, initialized in
            fragment.offsets.withUnsafeBufferPointer { starts in
                fragment.scalarHashes.withUnsafeBufferPointer { hashes in
                    var scalar = 0
                    for local in 0..<localCount {
                        let start = starts[local]
                        let end = local + 1 < localCount ? starts[local + 1] : source.count
                        if Self.isContainer(source[start]) {
                            numbers[local] = UInt32(truncatingIfNeeded: next)
                            next += 1
                            continue
                        }
                        let candidate = UnsafeRawBufferPointer(rebasing: source[start..<end])
                        let found = find(candidate, hash: hashes[scalar], before: written.count, in: written).object
                        scalar += 1
                        if found >= 0 {
                            numbers[local] = UInt32(truncatingIfNeeded: found)
                        } else {
                            numbers[local] = UInt32(truncatingIfNeeded: next)
                            next += 1
                        }
                    }
                }
            }
            initialized = localCount
        }
        return (numbers, next)
    }

    /// Appends the objects of `fragment` that `numbers` (from
    /// `numbering(of:)`) numbers anew, rewriting the references inside its
    /// containers to final numbers.
    mutating func append(_ fragment: BinaryPlistEmitter, numbers: [UInt32]) {
        let firstNew = offsets.count
        let origin = output.count
        let size = referenceSize
        let source = fragment.output.written
        let localCount = fragment.offsets.count
        // The offsets list is moved out while the output is written in place,
        // as the closure below may not touch `self`.
        var appended: [Int] = []
        swap(&appended, &offsets)
        output.appendInPlace(maximumCount: source.count) { out in
            guard let from = source.baseAddress else { return 0 }
            let to = UnsafeMutableRawPointer(out)
            var written = 0
            fragment.offsets.withUnsafeBufferPointer { starts in
                numbers.withUnsafeBufferPointer { final in
                    for local in 0..<localCount where Int(final[local]) >= firstNew {
                        let start = starts[local]
                        let end = local + 1 < localCount ? starts[local + 1] : source.count
                        appended.append(origin + written)
                        let header = Self.isContainer(source[start]) ? Self.headerLength(in: source, at: start) : end - start
                        (to + written).copyMemory(from: from + start, byteCount: header)
                        var reference = start + header
                        var slot = written + header
                        while reference < end {
                            let target = Self.loadReference(from + reference, size: size)
                            Self.storeReference(UInt64(final[target]), size: size, to: to + slot)
                            reference += size
                            slot += size
                        }
                        written += end - start
                    }
                }
            }
            return written
        }
        swap(&appended, &offsets)
    }

    /// Writes the final numbers of the back half's top-level values into the
    /// root's empty reference slots, which start at byte `slot`.
    mutating func fillRootSlots(from slot: Int, locals: [Int], numbers: [UInt32]) {
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

    /// The length of a container's marker and count, before its references.
    @inline(__always)
    static func headerLength(in bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
        guard bytes[start] & 0x0F == 0x0F else { return 1 }
        // A count of 15 or more follows as an integer object: marker 0x1n and 2^n bytes.
        return 2 + (1 << Int(bytes[start + 1] & 0x0F))
    }

    @inline(__always)
    static func loadReference(_ pointer: UnsafeRawPointer, size: Int) -> Int {
        switch size {
        case 1: Int(pointer.load(as: UInt8.self))
        case 2: Int(UInt16(bigEndian: pointer.loadUnaligned(as: UInt16.self)))
        case 4: Int(UInt32(bigEndian: pointer.loadUnaligned(as: UInt32.self)))
        default: Int(truncatingIfNeeded: UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)))
        }
    }

    @inline(__always)
    static func storeReference(_ value: UInt64, size: Int, to pointer: UnsafeMutableRawPointer) {
        switch size {
        case 1: pointer.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2: pointer.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
        case 4: pointer.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
        default: pointer.storeBytes(of: value.bigEndian, as: UInt64.self)
        }
    }
}
