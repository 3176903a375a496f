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
    func census(of value: PropertyListValue) throws -> PropertyListCensus {
        if let census = parallelCensus(of: value) { return census }
        return try PropertyListCensus(of: value, format: .binary, maximumObjectCount: maximumObjectCount,
                                      maximumDepth: maximumDepth, recordingRootChildren: true)
    }

    /// The census of a large value, counted in two parts at once; nil for a
    /// value that does not look large, or that breaks a limit (the serial
    /// census then throws the error it meets first).
    func parallelCensus(of value: PropertyListValue) -> PropertyListCensus? {
        let values: [PropertyListValue]
        switch value {
        case .array(let elements): values = elements
        case .dictionary(let entries): values = entries.values.elements
        default: return nil
        }
        guard values.count >= 2, looksLarge(values) else { return nil }
        let boundary = values.count / 2
        let parts = TwoThreads.run({
            try PropertyListCensus(rootOf: value, valuesBefore: boundary, format: .binary,
                                   maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
        }, {
            try PropertyListCensus(rootValues: values[boundary...], format: .binary,
                                   maximumObjectCount: maximumObjectCount, maximumDepth: maximumDepth)
        })
        guard var census = try? parts.front.get(), let back = try? parts.back.get() else { return nil }
        census.add(back)
        return census.objects <= maximumObjectCount ? census : nil
    }

    /// Whether a root with `values` likely reaches `parallelThreshold`
    /// objects, judged by its first value (counted no further than that).
    func looksLarge(_ values: [PropertyListValue]) -> Bool {
        guard let sample = try? PropertyListCensus(rootValues: values[..<1], format: .binary,
                                                   maximumObjectCount: parallelThreshold, maximumDepth: maximumDepth) else {
            return true // the first value alone passed the threshold (or broke a limit, which the census reports)
        }
        let (estimate, overflow) = sample.objects.multipliedReportingOverflow(by: values.count)
        return overflow || estimate >= parallelThreshold
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
