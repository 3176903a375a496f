import FileSystem
import Foundation

extension BinaryPropertyListReader {
    /// The XML property list `XMLPropertyListWriter` writes for the value of
    /// the binary property list `bytes`, written from the file's objects
    /// without building the value: byte for byte, and error for error,
    /// `read(bytes:)` then `encoded(as: .xml, options:)`.
    ///
    /// Three passes over the objects: the validator's (`validate(bytes:)`,
    /// so a bad file fails with the decoder's error), a census on the
    /// object graph with each container counted once (so a file whose
    /// shared sub-trees expand past the writer's limits is refused with the
    /// writer's error before anything is written), and the writing, on two
    /// threads for a large document as the writer does.
    ///
    /// Returns nil when the stream cannot give the writer's output, and the
    /// caller decodes: a dictionary that repeats a key (the decoder keeps
    /// one entry per key), sorted keys, or a writer depth limit below the
    /// reader's (whose errors come in the writer's order).
    func streamXML(bytes: UnsafeRawBufferPointer, options: PropertyListWriteOptions) throws -> Data? {
        guard let plan = try planXMLStream(bytes: bytes, options: options) else { return nil }
        if plan.objects >= XMLPropertyListWriter.parallelObjectThreshold,
           let data = try plan.stream.writeInHalves(root: plan.root, maximumDepth: options.maximumDepth, capacity: plan.capacity) {
            return data
        }
        var document = try plan.wholeDocument(maximumDepth: options.maximumDepth)
        return document.takeData()
    }

    /// ``streamXML(bytes:options:)`` handing the document to `write` in
    /// pieces, in order, as they are made, instead of returning it: for a
    /// large document the pieces are made on two threads while `write`
    /// runs (`OrderedPieces`). Returns false, having called `write` for
    /// nothing, where `streamXML` returns nil. Every limit is decided
    /// before the first call of `write`; a string the writer refuses may
    /// fail the conversion after some pieces were written. An error thrown
    /// by `write` stops the conversion and is rethrown. `pieceBytes` is
    /// the size a piece aims at (set smaller by tests).
    func streamXML(bytes: UnsafeRawBufferPointer, options: PropertyListWriteOptions, pieceBytes: Int = 1 << 19,
                   into write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let plan = try planXMLStream(bytes: bytes, options: options) else { return false }
        if plan.objects >= XMLPropertyListWriter.parallelObjectThreshold,
           try plan.stream.writeInPieces(root: plan.root, maximumDepth: options.maximumDepth, capacity: plan.capacity,
                                         pieceBytes: pieceBytes, into: write) {
            return true
        }
        let document = try plan.wholeDocument(maximumDepth: options.maximumDepth)
        try write(document.written)
        return true
    }

    /// Validates the file and decides the writer's limits on its census:
    /// everything the stream checks before writing. Nil when the stream
    /// cannot give the writer's output (see ``streamXML(bytes:options:)``).
    private func planXMLStream(bytes: UnsafeRawBufferPointer, options: PropertyListWriteOptions) throws -> XMLStreamPlan? {
        guard !options.sortsKeys, options.maximumDepth >= limits.maximumDepth else { return nil }
        let trailer = try checkedTrailer(bytes)
        let layout = BinaryObjectLayout(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth)
        try BinaryObjectValidator(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth).validate(root: trailer.topObject)
        let (totals, repeatsAKey) = try BinaryXMLCensus.totals(ofRoot: trailer.topObject, layout: layout)
        if repeatsAKey { return nil }
        let writer = XMLPropertyListWriter(limits: options.writerLimits)
        let maximumOutputSize = options.maximumOutputSize
        _ = try PropertyListCensus.checkedCount(
            format: .xml, maximumObjectCount: writer.maximumObjectCount, maximumOutputSize: maximumOutputSize,
            count: { limit in
                guard totals.objects <= limit else { throw PropertyListCensus.tooManyObjects(.xml, limit) }
                return totals
            },
            leastBytes: { $0.minimumTextBytes },
            sharedTotals: {
                PropertyListSharedTotals(objects: totals.objects, minimumTextBytes: totals.sharedTextBytes, minimumBinaryBytes: 0)
            })
        let capacity = min(max(totals.minimumTextBytes, bytes.count) * 2 + 256, maximumOutputSize + 4096)
        return XMLStreamPlan(stream: BinaryXMLStream(layout: layout), root: trailer.topObject, objects: totals.objects,
                             capacity: capacity)
    }
}

/// A validated binary file whose XML passed the writer's limits: what the
/// stream writes, and the estimated size of the whole document.
private struct XMLStreamPlan {
    let stream: BinaryXMLStream
    let root: Int
    let objects: Int
    let capacity: Int

    /// The whole document written on this thread.
    func wholeDocument(maximumDepth: Int) throws -> ByteBuffer {
        var emitter = XMLPlistEmitter(maximumDepth: maximumDepth)
        emitter.output.reserve(capacity)
        emitter.output.append(XMLPropertyListWriter.header)
        var writing = stream
        try writing.emit(root, indent: 0, &emitter)
        emitter.output.append("</plist>\n")
        return emitter.output
    }
}

/// Writes a validated binary property list's objects as XML elements
/// through an `XMLPlistEmitter`: scalars as the emitter writes their values
/// (decoded without allocating), strings and data straight from the file's
/// bytes, containers in the emitter's layout, errors with the emitter's key
/// paths.
struct BinaryXMLStream: BinaryObjectArea {
    let layout: BinaryObjectLayout
    /// A UTF-16 string's UTF-8 bytes, reused.
    private var scratch: [UInt8] = []
    /// The key elements (`<key>…</key>` and a newline, no indentation) of
    /// the last dictionary written whole, for the next dictionary with the
    /// same key objects in the same order (the records of a table): where
    /// its key references lie, their number, the elements one after the
    /// other and where each ends. A key's element depends only on its
    /// object, and these were written without error.
    private var lastKeys: (references: Int, count: Int, text: [UInt8], ends: [Int])?

    init(layout: BinaryObjectLayout) { self.layout = layout }

    /// Writes object `index` at `indent`.
    mutating func emit(_ index: Int, indent: Int, _ xml: inout XMLPlistEmitter) throws {
        let at = try offset(of: index)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        let low = marker & 0x0F
        switch marker >> 4 {
        case 0x4:
            let (payload, count) = try dataExtent(at: at, low: low)
            xml.tabs(indent)
            xml.appendDataElement(UnsafeRawBufferPointer(start: base + payload, count: count), indent: indent)
        case 0x5, 0x6:
            xml.tabs(indent)
            try withUTF8(ofString: index) { try xml.appendStringElement(utf8: $0) }
        case 0xA, 0xC, 0xD:
            let isDictionary = marker >> 4 == 0xD
            let (count, payload) = try containerExtent(at: at, low: low, isDictionary: isDictionary)
            xml.tabs(indent)
            guard count > 0 else { return xml.output.append(isDictionary ? "<dict/>\n" : "<array/>\n") }
            try xml.checkDepth(indent)
            xml.output.append(isDictionary ? "<dict>\n" : "<array>\n")
            try emitChildren(payload: payload, count: count, isDictionary: isDictionary, 0..<count, indent: indent + 1, &xml)
            xml.tabs(indent)
            xml.output.append(isDictionary ? "</dict>\n" : "</array>\n")
        default:
            if try emitScalar(at: at, marker: marker, indent: indent, &xml) { return }
            try xml.emit(decodeFixedSizeObject(at: at, marker: marker), indent: indent)
        }
    }

    /// Writes the common scalars (booleans, integers of 1 to 8 bytes, reals
    /// of 8 bytes, dates the writer can spell) straight from the file's
    /// bytes, as `XMLPlistEmitter.emit` writes their decoded values;
    /// returns false, having written nothing, for anything else, which the
    /// caller decodes (so every error is the decoder's or the writer's own).
    @inline(__always)
    private func emitScalar(at: Int, marker: UInt8, indent: Int, _ xml: inout XMLPlistEmitter) throws -> Bool {
        switch marker {
        case 0x08, 0x09:
            xml.tabs(indent)
            xml.appendBoolElement(marker == 0x09)
        case 0x10, 0x11, 0x12, 0x13:
            let size = 1 << Int(marker & 0x0F)
            try checkExtent(at + 1, size, object: at, "integer")
            let raw = readUInt(at + 1, size)
            xml.tabs(indent)
            // Eight bytes are signed, fewer unsigned (`decodeInteger`).
            xml.appendIntegerElement(size == 8 ? PropertyListInteger(Int64(bitPattern: raw)) : PropertyListInteger(raw))
        case 0x23:
            try checkExtent(at + 1, 8, object: at, "real")
            xml.tabs(indent)
            xml.appendRealElement(Double(bitPattern: readUInt(at + 1, 8)))
        case 0x33:
            try checkExtent(at + 1, 8, object: at, "date")
            let seconds = Double(bitPattern: readUInt(at + 1, 8))
            // Else decoded, for the decoder's or the writer's error.
            guard GregorianDate.isRepresentable(seconds), GregorianDate.isRepresentable(seconds.rounded(.down)) else {
                return false
            }
            xml.tabs(indent)
            // Representable, so the element is always whole.
            _ = xml.appendDateElement(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            return false
        }
        return true
    }

    /// Writes the children at offsets `range` of a container whose `count`
    /// references start at `payload`: elements, or a dictionary's entries
    /// (key, then value), naming each in any error's key path.
    mutating func emitChildren(payload: Int, count: Int, isDictionary: Bool, _ range: Range<Int>, indent: Int,
                               _ xml: inout XMLPlistEmitter) throws {
        guard isDictionary else {
            for offset in range {
                let child = try readReference(payload + offset * refSize)
                try XMLPlistEmitter.within(String(offset)) { try emit(child, indent: indent, &xml) }
            }
            return
        }
        if let keys = lastKeys, keys.count == count,
           RawMemory.bytesEqual(base + keys.references, base + payload, count: count * refSize) {
            // The same key objects in the same order as the last dictionary
            // written whole: their elements as written then.
            try keys.text.withUnsafeBytes { text in
                for offset in range {
                    let child = try readReference(payload + (count + offset) * refSize)
                    let key = try readReference(payload + offset * refSize)
                    xml.tabs(indent)
                    xml.output.append(UnsafeRawBufferPointer(rebasing: text[(offset == 0 ? 0 : keys.ends[offset - 1])..<keys.ends[offset]]))
                    try XMLPlistEmitter.within(keyName(key)) { try emit(child, indent: indent, &xml) }
                }
            }
            return
        }
        // A dictionary written whole keeps its key elements for the next.
        let whole = range == 0..<count
        var text: [UInt8] = []
        var ends: [Int] = []
        for offset in range {
            let child = try readReference(payload + (count + offset) * refSize)
            let key = try readReference(payload + offset * refSize)
            xml.tabs(indent)
            let keyStart = xml.output.count
            xml.output.append("<key>")
            try XMLPlistEmitter.writingKey({ keyName(key) }) {
                try withUTF8(ofString: key) { try xml.appendEscaped(utf8: $0) }
            }
            xml.output.append("</key>\n")
            if whole {
                text.append(contentsOf: UnsafeRawBufferPointer(rebasing: xml.output.written[keyStart...]))
                ends.append(text.count)
            }
            try XMLPlistEmitter.within(keyName(key)) { try emit(child, indent: indent, &xml) }
        }
        if whole { lastKeys = (payload, count, text, ends) }
    }

    /// Calls `body` with string object `index` as UTF-8: an ASCII string's
    /// own bytes, or a UTF-16 one transcoded into `scratch`.
    private mutating func withUTF8(ofString index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let at = try offset(of: index)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        if marker >> 4 == 0x5 {
            let bytes = try asciiStringBytes(at: at, low: marker & 0x0F)
            return try body(bytes.assumingMemoryBound(to: UInt8.self))
        }
        let (payload, units) = try utf16StringUnits(at: at, low: marker & 0x0F)
        // Taken out of `self` while in use, so reading the file's bytes
        // through `self` does not overlap the buffer's write access.
        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        defer { swap(&buffer, &scratch) }
        if buffer.count < units * 3 { buffer = [UInt8](repeating: 0, count: units * 3) }
        try buffer.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            let (written, malformedAt) = transcodeUTF16BigEndian(payload, units: units, into: start)
            if let malformedAt { throw unpairedSurrogate(at: malformedAt, object: at) }
            try body(UnsafeBufferPointer(start: start, count: written))
        }
    }

    /// A key as a string, for an error's key path (made only then).
    private func keyName(_ index: Int) -> String {
        (try? string(index)) ?? ""
    }

    /// The root's child count, where its references start and whether it
    /// is a dictionary, when it is a container of at least two children
    /// (which can be cut); else nil.
    private func splittableRoot(_ root: Int) throws -> (count: Int, payload: Int, isDictionary: Bool)? {
        let at = try offset(of: root)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        guard marker >> 4 == 0xA || marker >> 4 == 0xC || marker >> 4 == 0xD else { return nil }
        let isDictionary = marker >> 4 == 0xD
        let (count, payload) = try containerExtent(at: at, low: marker & 0x0F, isDictionary: isDictionary)
        return count >= 2 ? (count, payload, isDictionary) : nil
    }

    /// The whole document handed to `write` in pieces of about
    /// `pieceBytes` (estimated from `capacity`, the whole document's
    /// estimate), made on two threads and written in order
    /// (`OrderedPieces`); false when the root is not a container of at
    /// least two children. Each piece is a run of the root's children; the
    /// first also holds the header and the root's opening tag, the last
    /// its closing tag and the document's end.
    func writeInPieces(root: Int, maximumDepth: Int, capacity: Int, pieceBytes: Int,
                       into write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let (count, payload, isDictionary) = try splittableRoot(root) else { return false }
        let pieces = min(max(capacity / max(pieceBytes, 1), 2), count)
        try OrderedPieces.run(count: pieces, capacity: capacity / pieces + 4096, make: { piece, buffer in
            var emitter = XMLPlistEmitter(maximumDepth: maximumDepth, output: buffer)
            if piece == 0 { try XMLPropertyListWriter.openDocument(&emitter, open: isDictionary ? "<dict>\n" : "<array>\n") }
            var stream = self
            let range = count * piece / pieces ..< count * (piece + 1) / pieces
            try stream.emitChildren(payload: payload, count: count, isDictionary: isDictionary, range, indent: 1, &emitter)
            if piece == pieces - 1 {
                XMLPropertyListWriter.closeDocument(&emitter.output, close: isDictionary ? "</dict>\n" : "</array>\n")
            }
        }, consume: write)
        return true
    }

    /// The whole document in two halves on two threads, as
    /// `XMLPropertyListWriter.writeInHalves` writes a value; nil when the
    /// root is not a container of at least two children.
    func writeInHalves(root: Int, maximumDepth: Int, capacity: Int) throws -> Data? {
        guard let (count, payload, isDictionary) = try splittableRoot(root) else { return nil }
        return try XMLPropertyListWriter.writeInHalves(
            count: count, open: isDictionary ? "<dict>\n" : "<array>\n", close: isDictionary ? "</dict>\n" : "</array>\n",
            maximumDepth: maximumDepth, capacity: capacity) { emitter, range in
                var stream = self
                try stream.emitChildren(payload: payload, count: count, isDictionary: isDictionary, range, indent: 1, &emitter)
            }
    }
}
