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
    /// The census of `value`, taken on two threads when the value looks large
    /// enough for the parallel path.
    ///
    /// A container root is counted with its keys and first value first; that
    /// value's size times the root's count is the guess at the whole. A large
    /// guess counts the other values in two parts at once, a small one on
    /// this thread. If a part breaks a limit, the serial census counts again
    /// from the start to throw the error it meets first.
    func census(of value: PropertyListValue) throws -> PropertyListCensus {
        if let census = censusInParts(of: value) { return census }
        return try PropertyListCensus(of: value, format: .binary, maximumObjectCount: objectCap,
                                      maximumDepth: maximumDepth, recordingRootChildren: true)
    }

    /// The census of a container root counted in parts (see `census(of:)`),
    /// or nil for any other value and whenever a part throws or the parts
    /// together pass the object limit.
    func censusInParts(of value: PropertyListValue) -> PropertyListCensus? {
        let values: [PropertyListValue]
        let objectsBeforeValues: Int
        switch value {
        case .array(let elements): (values, objectsBeforeValues) = (elements, 1)
        case .dictionary(let entries): (values, objectsBeforeValues) = (entries.values.elements, 1 + entries.count)
        default: return nil
        }
        guard values.count >= 2, var census = try? PropertyListCensus(rootOf: value, valuesBefore: 1, format: .binary,
                                                                         maximumObjectCount: objectCap,
                                                                         maximumDepth: maximumDepth) else { return nil }
        let (rest, overflow) = (census.objects - objectsBeforeValues).multipliedReportingOverflow(by: values.count - 1)
        if overflow || census.objects + rest >= parallelThreshold {
            let boundary = (values.count + 1) / 2
            let parts = TwoThreads.run({ try self.census(ofValues: values[1..<boundary]) },
                                       { try self.census(ofValues: values[boundary...]) })
            guard let front = try? parts.front.get(), let back = try? parts.back.get() else { return nil }
            census.add(front)
            census.add(back)
        } else {
            do {
                try census.countRootValues(values[1...], format: .binary, maximumObjectCount: objectCap,
                                           maximumDepth: maximumDepth)
            } catch {
                return nil
            }
        }
        return census.objects <= objectCap ? census : nil
    }

    private func census(ofValues values: ArraySlice<PropertyListValue>) throws -> PropertyListCensus {
        try PropertyListCensus(rootValues: values, format: .binary, maximumObjectCount: objectCap, maximumDepth: maximumDepth)
    }

    /// Encodes `value` on two threads, or returns nil if its root has fewer
    /// than two children to share out.
    func writeInParallel(_ value: PropertyListValue, census: PropertyListCensus) throws -> Data? {
        guard let split = RootSplit(value, census: census) else { return nil }
        let referenceSize = BinaryPlistEmitter.byteWidth(UInt64(census.objects))
        let (frontHalf, backHalf) = TwoThreads.run({
            var front = BinaryPlistEmitter(referenceSize: referenceSize, isFragment: false,
                                           share: .front(census, backFraction: split.backFraction))
            let slot = try front.emitRoot(of: split)
            return (emitter: front, firstEmptySlot: slot)
        }, {
            var back = BinaryPlistEmitter(referenceSize: referenceSize, isFragment: true,
                                          share: .back(census, backFraction: split.backFraction))
            let locals = try back.emitFragment(split.values[split.boundary...])
            return (emitter: back, locals: locals)
        })
        // The front comes first in object order, so its error is the one the
        // serial writer would have met first. Consuming the result leaves the
        // front's offsets uniquely referenced, so appending to them does not
        // copy them first.
        var (front, firstEmptySlot) = try (consume frontHalf).get()
        let (back, locals) = try (consume backHalf).get()
        var numbers = [UInt32](repeating: 0, count: back.objectCount)
        let outcome = numbers.withUnsafeMutableBufferPointer { numbers in
            let middle = back.objectCount / 2
            // Both parts only read `front`. (A copy of it here would share its
            // offsets, which `append` would then have to copy before growing.)
            _ = TwoThreads.run({ front.lookUp(back, 0..<middle, into: numbers) },
                               { front.lookUp(back, middle..<back.objectCount, into: numbers) })
            let layout = front.numberNewObjects(of: back, numbers, copySplit: middle)
            let exactSize = BinaryPlistEmitter.byteWidth(UInt64(layout.objectCount))
            guard exactSize == referenceSize else { return MergeOutcome.needsReferenceSize(exactSize) }
            front.append(back, numbers: UnsafeBufferPointer(numbers), layout: layout, copySplit: middle)
            front.fillRootSlots(from: firstEmptySlot, locals: locals, numbers: UnsafeBufferPointer(numbers))
            return MergeOutcome.written(front.finish())
        }
        switch outcome {
        case .written(let data):
            return data
        case .needsReferenceSize(let exactSize):
            // The census overestimated enough to change the reference width;
            // the serial writer with the exact width writes what it would
            // have written after its own second pass.
            return try writeSerially(value, census: census, referenceSize: exactSize)
        }
    }
}

/// How the merge ended.
private enum MergeOutcome {
    case written(Data)
    /// The merged object count needs references of this width instead.
    case needsReferenceSize(Int)
}
