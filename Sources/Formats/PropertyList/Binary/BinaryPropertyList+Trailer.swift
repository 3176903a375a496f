/// The 32-byte trailer that ends every binary property list, validated.
struct BinaryPropertyListTrailer {
    static let size = 32
    static let headerSize = 8

    var offsetIntSize: Int
    var objectRefSize: Int
    var objectCount: Int
    var topObject: Int
    var offsetTableOffset: Int

    /// Reads and checks the trailer of `bytes`: every field in range, the
    /// offset table inside the file and after the header, refs wide enough
    /// for the object count. Checks follow CF's `__CFBinaryPlistGetTopLevelInfo`.
    init(_ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) throws {
        func fail(_ code: PropertyListError.Code, _ offset: Int, _ why: String) -> PropertyListError {
            PropertyListError(code, format: .binary, location: .byteOffset(offset), why)
        }
        let length = bytes.count
        guard length >= Self.headerSize + Self.size + 1 else {
            throw fail(.truncated, 0, "file is \(length) bytes, shorter than a header, one object and a trailer")
        }
        let start = length - Self.size
        func read64(_ at: Int) -> UInt64 {
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: start + at, as: UInt64.self))
        }
        let offsetIntSize = Int(bytes[start + 6])
        let objectRefSize = Int(bytes[start + 7])
        let objectCount = read64(8), topObject = read64(16), tableOffset = read64(24)
        guard (1...8).contains(offsetIntSize) else {
            throw fail(.invalidTable, start + 6, "offset size \(offsetIntSize) is not between 1 and 8")
        }
        guard (1...8).contains(objectRefSize) else {
            throw fail(.invalidTable, start + 7, "object reference size \(objectRefSize) is not between 1 and 8")
        }
        guard objectCount >= 1 else { throw fail(.invalidTable, start + 8, "file declares no objects") }
        guard objectCount <= UInt64(limits.maximumObjectCount) else {
            throw fail(.objectLimitExceeded, start + 8, "file declares \(objectCount) objects, over the limit of \(limits.maximumObjectCount)")
        }
        guard topObject < objectCount else {
            throw fail(.invalidTable, start + 16, "top object \(topObject) is not below the object count \(objectCount)")
        }
        guard tableOffset >= UInt64(Self.headerSize + 1), tableOffset < UInt64(start) else {
            throw fail(.invalidTable, start + 24, "offset table at \(tableOffset) is outside the object area 9..<\(start)")
        }
        let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetIntSize))
        guard !overflow, tableSize <= UInt64(start) - tableOffset else {
            throw fail(.invalidTable, start + 8, "offset table of \(objectCount) × \(offsetIntSize) bytes runs into the trailer")
        }
        if objectRefSize != 8, objectCount > (UInt64(1) << UInt64(8 * objectRefSize)) {
            throw fail(.invalidTable, start + 7, "\(objectRefSize)-byte references cannot address \(objectCount) objects")
        }
        if offsetIntSize != 8, tableOffset > (UInt64(1) << UInt64(8 * offsetIntSize)) {
            throw fail(.invalidTable, start + 6, "\(offsetIntSize)-byte offsets cannot reach the offset table at \(tableOffset)")
        }
        self.offsetIntSize = offsetIntSize
        self.objectRefSize = objectRefSize
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTableOffset = Int(tableOffset)
    }
}
