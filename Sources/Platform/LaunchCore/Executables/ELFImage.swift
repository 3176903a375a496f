/// What the dynamic loader needs to know of an ELF executable or shared
/// library: its program interpreter (`PT_INTERP`), the libraries it needs
/// (`DT_NEEDED`) and where it says to look for them (`DT_RUNPATH`,
/// `DT_RPATH`), read from its program headers and dynamic section.
///
/// ```swift
/// let image = try ELFImage(contentsOf: "/bin/sh")
/// image.needed      // ["libc.so.6"]
/// image.interpreter // "/lib64/ld-linux-x86-64.so.2"
/// ```
///
/// The reader is hand-written and bounds-checked: every offset, size and
/// count from the file is checked against the file's length and against
/// ``limits`` before it is used, and all arithmetic is overflow-checked.
public struct ELFImage: Sendable, Hashable {
    /// `PT_INTERP`: the loader the kernel starts for this file; nil for a
    /// static program or a library.
    public var interpreter: String?
    /// `DT_NEEDED`, in order.
    public var needed: [String]
    /// `DT_RUNPATH` entries, split at `:`, unexpanded (`$ORIGIN` kept).
    public var runPath: [String]
    /// `DT_RPATH` entries (the older form, searched before the environment).
    public var rPath: [String]
    /// Whether the file is 64-bit (`ELFCLASS64`).
    public var is64Bit: Bool
    /// `e_machine`: the architecture, to tell a 32-bit library of the same name apart.
    public var machine: UInt16

    /// Bounds on what is read, so a hostile file cannot make the reader
    /// allocate or loop without end.
    public enum limits {
        /// Program headers read at most.
        public static let programHeaders = 4096
        /// Dynamic entries read at most.
        public static let dynamicEntries = 65536
        /// Longest string (interpreter, library name, run path).
        public static let stringLength = 4096
    }

    /// Reads the file at `path`.
    /// - Throws: ``ELFError``: ``ELFErrorCode/unreadable`` when it
    ///   cannot be opened, else what is malformed in it.
    public init(contentsOf path: String) throws(ELFError) {
        let file = try ELFFile(path: path)
        defer { file.close() }
        try self.init(size: file.size) { offset, count throws(ELFError) in try file.read(at: offset, count: count) }
    }

    /// Reads an image held in memory (tests, and files already read).
    public init(bytes: [UInt8]) throws(ELFError) {
        try self.init(size: UInt64(bytes.count)) { offset, count throws(ELFError) in
            // Bounds were checked against `size` by the reader.
            let start = Int(offset)
            return Array(bytes[start..<start + count])
        }
    }

    /// Reads through `read(offset, count)`, which is only ever asked for
    /// ranges within `size`.
    init(size: UInt64, read: @escaping (UInt64, Int) throws(ELFError) -> [UInt8]) throws(ELFError) {
        let reader = ELFReader(size: size, read: read)
        let magic: [UInt8] = [0x7f, 0x45, 0x4c, 0x46]
        guard try reader.bytes(at: 0, count: Int(min(size, 4)), "the magic") == magic else {
            throw ELFError(.notELF, "not an ELF file")
        }
        let header = try reader.bytes(at: 0, count: 16, "the identification")
        guard header[4] == 1 || header[4] == 2 else { throw ELFError(.unsupported, offset: 4, "unknown ELF class \(header[4])") }
        guard header[5] == 1 || header[5] == 2 else { throw ELFError(.unsupported, offset: 5, "unknown byte order \(header[5])") }
        guard header[6] == 1 else { throw ELFError(.unsupported, offset: 6, "unknown ELF version \(header[6])") }
        let layout = ELFLayout(is64Bit: header[4] == 2, littleEndian: header[5] == 1)
        let fields = try ELFFields(reader.bytes(at: 0, count: layout.headerSize, "the ELF header"), layout)
        is64Bit = layout.is64Bit
        machine = UInt16(truncatingIfNeeded: try fields.unsigned(at: 18, width: 2))
        let table = try ProgramHeaderTable(header: fields, layout: layout, reader: reader)
        interpreter = try table.interpreter(reader)
        let dynamic = try table.dynamicEntries(reader)
        var strings: ELFStringTable?
        if let address = dynamic.first(where: { $0.tag == DynamicTag.stringTable })?.value {
            let size = dynamic.first(where: { $0.tag == DynamicTag.stringTableSize })?.value ?? 0
            strings = ELFStringTable(offset: try table.fileOffset(ofAddress: address), size: size)
        }
        func text(_ tag: UInt64) throws(ELFError) -> [String] {
            var values: [String] = []
            for entry in dynamic where entry.tag == tag {
                guard let strings else { throw ELFError(.malformed, "a dynamic string without a string table") }
                values.append(try strings.string(at: entry.value, reader))
            }
            return values
        }
        needed = try text(DynamicTag.needed)
        runPath = try text(DynamicTag.runPath).flatMap { $0.split(separator: ":").map(String.init) }
        rPath = try text(DynamicTag.rPath).flatMap { $0.split(separator: ":").map(String.init) }
    }
}

/// The dynamic-section tags the reader uses.
enum DynamicTag {
    static let null: UInt64 = 0
    static let needed: UInt64 = 1
    static let stringTable: UInt64 = 5
    static let stringTableSize: UInt64 = 10
    static let rPath: UInt64 = 15
    static let runPath: UInt64 = 29
}
