/// A text stream appending to a `ByteBuffer` (sharing its storage).
///
/// Why: numbers write their text to a stream as ASCII bytes
/// (`_writeASCII`, which `TextOutputStream` declares with a default that
/// makes a String); taking them as bytes writes a real without allocating.
struct ASCIIOutput: TextOutputStream {
    var output: ByteBuffer

    mutating func write(_ string: String) { output.append(utf8: string) }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { output.append(UnsafeRawBufferPointer(buffer)) }
}
