/// Copies a range of a fragment's objects into the merged output: the kept
/// scalars as they are (runs of adjacent ones in one copy), the containers
/// with every reference rewritten to its final number.
struct FragmentCopy {
    let fragment: BinaryPlistEmitter
    /// Final numbers by local number; below `firstNew` for dropped scalars.
    let numbers: UnsafeBufferPointer<UInt32>
    let firstNew: Int
    let referenceSize: Int

    /// Copies the kept objects among `locals` to `destination`, which is
    /// byte `origin` of the output, and stores their offsets at `offsets`.
    func copy(_ locals: Range<Int>, to destination: UnsafeMutableRawPointer, origin: Int,
              offsets: UnsafeMutablePointer<Int>?) {
        let source = fragment.output.written
        guard let from = source.baseAddress, let offsets else { return }
        fragment.offsets.withUnsafeBufferPointer { starts in
            var written = 0
            var kept = 0
            // Kept scalars not copied yet: they sit together in the fragment
            // too, as nothing dropped or rewritten lies between them.
            var runStart = 0
            var runLength = 0
            for local in locals {
                let start = starts[local]
                let length = (local + 1 < starts.count ? starts[local + 1] : source.count) - start
                guard Int(numbers[local]) >= firstNew else {
                    (destination + written - runLength).copyMemory(from: from + runStart, byteCount: runLength)
                    runLength = 0
                    continue
                }
                offsets[kept] = origin + written
                kept += 1
                if BinaryPlistEmitter.isContainer(source[start]) {
                    (destination + written - runLength).copyMemory(from: from + runStart, byteCount: runLength)
                    runLength = 0
                    copyContainer(from: from + start, length: length, to: destination + written)
                } else {
                    if runLength == 0 { runStart = start }
                    runLength += length
                }
                written += length
            }
            (destination + written - runLength).copyMemory(from: from + runStart, byteCount: runLength)
        }
    }

    /// Copies a container's marker and count, then its references mapped to final numbers.
    @inline(__always)
    func copyContainer(from source: UnsafeRawPointer, length: Int, to destination: UnsafeMutableRawPointer) {
        // A count of 15 or more follows the marker as an integer object: marker 0x1n and 2^n bytes.
        let marker = source.load(as: UInt8.self)
        let header = marker & 0x0F == 0x0F ? 2 + (1 << Int(source.load(fromByteOffset: 1, as: UInt8.self) & 0x0F)) : 1
        destination.copyMemory(from: source, byteCount: header)
        var position = header
        while position < length {
            let local = Self.loadReference(source + position, size: referenceSize)
            Self.storeReference(numbers[local], size: referenceSize, to: destination + position)
            position += referenceSize
        }
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
    static func storeReference(_ value: UInt32, size: Int, to pointer: UnsafeMutableRawPointer) {
        switch size {
        case 1: pointer.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        case 2: pointer.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
        case 4: pointer.storeBytes(of: value.bigEndian, as: UInt32.self)
        default: pointer.storeBytes(of: UInt64(value).bigEndian, as: UInt64.self)
        }
    }
}
