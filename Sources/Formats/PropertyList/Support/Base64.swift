/// Base64 for XML `<data>` elements: CF's line layout on output, and a
/// decoder that skips the whitespace those lines add.
enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Decoding table: 0-63 for alphabet bytes, `skip` for whitespace, `pad` for `=`, `invalid` otherwise.
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        for byte in [0x20, 0x09, 0x0A, 0x0D] as [UInt8] { table[Int(byte)] = skip }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()
    static let invalid: UInt8 = 0xFF
    static let skip: UInt8 = 0xFE
    static let pad: UInt8 = 0xFD

    /// Appends `bytes` encoded, in lines of `lineLength` characters (a
    /// multiple of 4), each line preceded by `indent` tabs and followed by a
    /// newline.
    static func appendLines(_ bytes: UnsafeRawBufferPointer, lineLength: Int, indent: Int, to output: inout ByteBuffer) {
        let count = bytes.count
        guard count > 0, let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let encodedLength = (count + 2) / 3 * 4
        let lineLength = min(lineLength, encodedLength)
        let lineCount = (encodedLength + lineLength - 1) / lineLength
        let inputPerLine = lineLength / 4 * 3
        alphabet.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return }
            output.appendInPlace(maximumCount: encodedLength + lineCount * (indent + 1)) { out in
                var written = 0
                var index = 0
                while index < count {
                    for _ in 0..<indent {
                        out[written] = 0x09
                        written += 1
                    }
                    let lineEnd = min(index + inputPerLine, count)
                    while index + 3 <= lineEnd {
                        let chunk = UInt32(source[index]) << 16 | UInt32(source[index + 1]) << 8 | UInt32(source[index + 2])
                        out[written] = table[Int(chunk >> 18)]
                        out[written + 1] = table[Int(chunk >> 12 & 0x3F)]
                        out[written + 2] = table[Int(chunk >> 6 & 0x3F)]
                        out[written + 3] = table[Int(chunk & 0x3F)]
                        written += 4
                        index += 3
                    }
                    let remaining = lineEnd - index
                    if remaining > 0 {
                        let chunk = UInt32(source[index]) << 16 | (remaining == 2 ? UInt32(source[index + 1]) << 8 : 0)
                        out[written] = table[Int(chunk >> 18)]
                        out[written + 1] = table[Int(chunk >> 12 & 0x3F)]
                        out[written + 2] = remaining == 2 ? table[Int(chunk >> 6 & 0x3F)] : UInt8(ascii: "=")
                        out[written + 3] = UInt8(ascii: "=")
                        written += 4
                        index = lineEnd
                    }
                    out[written] = 0x0A
                    written += 1
                }
                return written
            }
        }
    }

    /// Encodes `bytes` on one line.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output = ByteBuffer(capacity: (bytes.count + 2) / 3 * 4 + 1)
        Array(bytes).withUnsafeBytes { appendLines($0, lineLength: Int.max / 2, indent: 0, to: &output) }
        if output.last == 0x0A { output.removeLast() }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Decodes base64 text, skipping whitespace; padding is optional.
    /// Returns the offset of the first bad byte on failure.
    static func decode(_ text: UnsafeRawBufferPointer) -> Result<[UInt8], BadByte> {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        if let bad = scan(text, { output.append($0) }) { return .failure(bad) }
        return .success(output)
    }

    /// Checks base64 text as ``decode(_:)`` does, keeping no bytes.
    static func validate(_ text: UnsafeRawBufferPointer) -> Result<Void, BadByte> {
        if let bad = scan(text, { _ in }) { return .failure(bad) }
        return .success(())
    }

    /// Decodes `text`, giving each byte to `emit`; the first bad byte, or nil.
    @inline(__always)
    static func scan(_ text: UnsafeRawBufferPointer, _ emit: (UInt8) -> Void) -> BadByte? {
        var accumulator: UInt32 = 0
        var pending = 0
        var padding = 0
        let table = decodeTable
        for index in 0..<text.count {
            let code = table[Int(text[index])]
            if code < 64 {
                if padding > 0 { return BadByte(offset: index) }
                accumulator = accumulator << 6 | UInt32(code)
                pending += 1
                if pending == 4 {
                    emit(UInt8(truncatingIfNeeded: accumulator >> 16))
                    emit(UInt8(truncatingIfNeeded: accumulator >> 8))
                    emit(UInt8(truncatingIfNeeded: accumulator))
                    pending = 0
                    accumulator = 0
                }
            } else if code == skip {
                continue
            } else if code == pad {
                padding += 1
                if padding > 2 || pending + padding > 4 || pending < 2 { return BadByte(offset: index) }
            } else {
                return BadByte(offset: index)
            }
        }
        switch pending {
        case 0: break
        case 2: emit(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            emit(UInt8(truncatingIfNeeded: accumulator >> 10))
            emit(UInt8(truncatingIfNeeded: accumulator >> 2))
        default: return BadByte(offset: text.count)
        }
        return nil
    }

    struct BadByte: Error { var offset: Int }
}
