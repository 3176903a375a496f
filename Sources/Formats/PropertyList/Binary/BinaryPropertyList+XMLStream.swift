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
        guard !options.sortsKeys, options.maximumDepth >= limits.maximumDepth else { return nil }
        let trailer = try checkedTrailer(bytes)
        let layout = BinaryObjectLayout(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth)
        try BinaryObjectValidator(bytes: bytes, trailer: trailer, maximumDepth: limits.maximumDepth).validate(root: trailer.topObject)
        var census = BinaryXMLCensus(layout: layout)
        let totals = try census.totals(of: trailer.topObject)
        if census.repeatsAKey { return nil }
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
        let stream = BinaryXMLStream(layout: layout)
        if totals.objects >= XMLPropertyListWriter.parallelObjectThreshold,
           let data = try stream.writeInHalves(root: trailer.topObject, maximumDepth: options.maximumDepth, capacity: capacity) {
            return data
        }
        var emitter = XMLPlistEmitter(maximumDepth: options.maximumDepth)
        emitter.output.reserve(capacity)
        emitter.output.append(XMLPropertyListWriter.header)
        var writing = stream
        try writing.emit(trailer.topObject, indent: 0, &emitter)
        emitter.output.append("</plist>\n")
        return emitter.output.takeData()
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
            try xml.emit(decodeFixedSizeObject(at: at, marker: marker), indent: indent)
        }
    }

    /// Writes the children at offsets `range` of a container whose `count`
    /// references start at `payload`: elements, or a dictionary's entries
    /// (key, then value), naming each in any error's key path.
    mutating func emitChildren(payload: Int, count: Int, isDictionary: Bool, _ range: Range<Int>, indent: Int,
                               _ xml: inout XMLPlistEmitter) throws {
        for offset in range {
            let child = try readReference(payload + (isDictionary ? count + offset : offset) * refSize)
            guard isDictionary else {
                try XMLPlistEmitter.within(String(offset)) { try emit(child, indent: indent, &xml) }
                continue
            }
            let key = try readReference(payload + offset * refSize)
            xml.tabs(indent)
            xml.output.append("<key>")
            try XMLPlistEmitter.writingKey({ keyName(key) }) {
                try withUTF8(ofString: key) { try xml.appendEscaped(utf8: $0) }
            }
            xml.output.append("</key>\n")
            try XMLPlistEmitter.within(keyName(key)) { try emit(child, indent: indent, &xml) }
        }
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

    /// The whole document in two halves on two threads, as
    /// `XMLPropertyListWriter.writeInHalves` writes a value; nil when the
    /// root is not a container of at least two children.
    func writeInHalves(root: Int, maximumDepth: Int, capacity: Int) throws -> Data? {
        let at = try offset(of: root)
        let marker = base.load(fromByteOffset: at, as: UInt8.self)
        guard marker >> 4 == 0xA || marker >> 4 == 0xC || marker >> 4 == 0xD else { return nil }
        let isDictionary = marker >> 4 == 0xD
        let (count, payload) = try containerExtent(at: at, low: marker & 0x0F, isDictionary: isDictionary)
        guard count >= 2 else { return nil }
        return try XMLPropertyListWriter.writeInHalves(
            count: count, open: isDictionary ? "<dict>\n" : "<array>\n", close: isDictionary ? "</dict>\n" : "</array>\n",
            maximumDepth: maximumDepth, capacity: capacity) { emitter, range in
                var stream = self
                try stream.emitChildren(payload: payload, count: count, isDictionary: isDictionary, range, indent: 1, &emitter)
            }
    }
}
