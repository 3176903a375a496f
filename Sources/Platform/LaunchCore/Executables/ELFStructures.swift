// The pieces of an ELF file the reader walks: its class and byte order,
// fixed-width fields, the program header table, the dynamic section and its
// string table. Every read goes through `ELFReader`, which checks the range
// against the file's size first.

/// Reads checked ranges of the file.
struct ELFReader {
    let size: UInt64
    let read: (UInt64, Int) throws(ELFError) -> [UInt8]

    /// `count` bytes at `offset`, or ``ELFErrorCode/truncated``
    /// when they are not all in the file.
    func bytes(at offset: UInt64, count: Int, _ what: String) throws(ELFError) -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(UInt64(count))
        guard count >= 0, !overflow, end <= size else {
            throw ELFError(.truncated, offset: offset, "\(what) lies past the end of the file")
        }
        return try read(offset, count)
    }
}

/// ELF32 or ELF64, little- or big-endian.
struct ELFLayout {
    let is64Bit: Bool
    let littleEndian: Bool

    var headerSize: Int { is64Bit ? 64 : 52 }
    var wordSize: Int { is64Bit ? 8 : 4 }
    var programHeaderSize: Int { is64Bit ? 56 : 32 }
    var dynamicEntrySize: Int { is64Bit ? 16 : 8 }
}

/// Fixed-width unsigned fields of a byte range.
struct ELFFields {
    let bytes: [UInt8]
    let layout: ELFLayout

    init(_ bytes: [UInt8], _ layout: ELFLayout) {
        self.bytes = bytes
        self.layout = layout
    }

    func unsigned(at offset: Int, width: Int) throws(ELFError) -> UInt64 {
        guard offset >= 0, width <= 8, offset + width <= bytes.count else {
            throw ELFError(.truncated, offset: UInt64(max(offset, 0)), "a field lies past its structure")
        }
        var value: UInt64 = 0
        for index in 0..<width {
            let byte = UInt64(bytes[offset + (layout.littleEndian ? width - 1 - index : index)])
            value = value << 8 | byte
        }
        return value
    }

    /// A word-sized field: 8 bytes at `offset64` in ELF64, 4 at `offset32` in ELF32.
    func word(_ offset64: Int, _ offset32: Int) throws(ELFError) -> UInt64 {
        layout.is64Bit ? try unsigned(at: offset64, width: 8) : try unsigned(at: offset32, width: 4)
    }
}

/// One program header: the fields the reader uses.
struct ProgramHeader {
    static let load: UInt64 = 1
    static let dynamic: UInt64 = 2
    static let interpreter: UInt64 = 3

    let type: UInt64
    let offset: UInt64
    let virtualAddress: UInt64
    let fileSize: UInt64
}

/// The program header table, read whole.
struct ProgramHeaderTable {
    let headers: [ProgramHeader]
    let layout: ELFLayout

    init(header: ELFFields, layout: ELFLayout, reader: ELFReader) throws(ELFError) {
        self.layout = layout
        let offset = try header.word(32, 28)
        let entrySize = Int(try header.unsigned(at: layout.is64Bit ? 54 : 42, width: 2))
        let count = Int(try header.unsigned(at: layout.is64Bit ? 56 : 44, width: 2))
        guard count == 0 || entrySize >= layout.programHeaderSize else {
            throw ELFError(.malformed, offset: offset, "program headers of \(entrySize) bytes are too small")
        }
        guard count <= ELFImage.limits.programHeaders else {
            throw ELFError(.malformed, offset: offset, "\(count) program headers are too many")
        }
        let table = try reader.bytes(at: offset, count: count * entrySize, "the program header table")
        var headers: [ProgramHeader] = []
        for index in 0..<count {
            let start = index * entrySize
            let fields = ELFFields(Array(table[start..<start + layout.programHeaderSize]), layout)
            headers.append(ProgramHeader(type: try fields.unsigned(at: 0, width: 4),
                                         offset: try fields.word(8, 4),
                                         virtualAddress: try fields.word(16, 8),
                                         fileSize: try fields.word(32, 16)))
        }
        self.headers = headers
    }

    /// The `PT_INTERP` path, without its terminating NUL.
    func interpreter(_ reader: ELFReader) throws(ELFError) -> String? {
        guard let header = headers.first(where: { $0.type == ProgramHeader.interpreter }) else { return nil }
        guard header.fileSize <= UInt64(ELFImage.limits.stringLength) else {
            throw ELFError(.malformed, offset: header.offset, "an interpreter path of \(header.fileSize) bytes")
        }
        let bytes = try reader.bytes(at: header.offset, count: Int(header.fileSize), "the interpreter path")
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The `PT_DYNAMIC` entries up to `DT_NULL`; none for a static file.
    func dynamicEntries(_ reader: ELFReader) throws(ELFError) -> [(tag: UInt64, value: UInt64)] {
        guard let header = headers.first(where: { $0.type == ProgramHeader.dynamic }) else { return [] }
        let count = header.fileSize / UInt64(layout.dynamicEntrySize)
        guard count <= UInt64(ELFImage.limits.dynamicEntries) else {
            throw ELFError(.malformed, offset: header.offset, "a dynamic section of \(count) entries")
        }
        let bytes = try reader.bytes(at: header.offset, count: Int(count) * layout.dynamicEntrySize, "the dynamic section")
        var entries: [(tag: UInt64, value: UInt64)] = []
        for index in 0..<Int(count) {
            let start = index * layout.dynamicEntrySize
            let fields = ELFFields(Array(bytes[start..<start + layout.dynamicEntrySize]), layout)
            let tag = try fields.word(0, 0)
            if tag == DynamicTag.null { break }
            entries.append((tag, try fields.word(8, 4)))
        }
        return entries
    }

    /// The file offset of a virtual address, through the `PT_LOAD` segment
    /// that maps it.
    func fileOffset(ofAddress address: UInt64) throws(ELFError) -> UInt64 {
        for header in headers where header.type == ProgramHeader.load {
            guard address >= header.virtualAddress else { continue }
            let delta = address - header.virtualAddress
            guard delta < header.fileSize else { continue }
            let (offset, overflow) = header.offset.addingReportingOverflow(delta)
            if !overflow { return offset }
        }
        throw ELFError(.malformed, "no segment maps the address \(address)")
    }
}

/// The dynamic string table (`DT_STRTAB`, `DT_STRSZ`).
struct ELFStringTable {
    let offset: UInt64
    let size: UInt64

    /// The NUL-terminated string at `index`, which must lie in the table.
    func string(at index: UInt64, _ reader: ELFReader) throws(ELFError) -> String {
        guard index < size else { throw ELFError(.malformed, offset: offset, "a string index \(index) past the string table") }
        let (start, overflow) = offset.addingReportingOverflow(index)
        guard !overflow else { throw ELFError(.malformed, offset: offset, "a string index \(index) past the string table") }
        let available = min(size - index, reader.size > start ? reader.size - start : 0, UInt64(ELFImage.limits.stringLength))
        let bytes = try reader.bytes(at: start, count: Int(available), "a dynamic string")
        guard let end = bytes.firstIndex(of: 0) else {
            throw ELFError(.malformed, offset: start, "a dynamic string without an end")
        }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
