/// The serialized forms of a property list.
public enum PropertyListFormat: String, CaseIterable, Hashable, Sendable {
    /// Apple's binary format, `bplist00`.
    case binary
    /// Apple's XML 1.0 format with the `plist` DTD.
    case xml
    /// The old-style ASCII format of NeXTSTEP and OpenStep, including `.strings` files.
    case openStep
    /// JSON, written for people and tools; see ``JSONPropertyListWriter`` for the mapping.
    case json

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .binary: "binary"
        case .xml: "XML"
        case .openStep: "OpenStep"
        case .json: "JSON"
        }
    }

    /// The format of `bytes`, judged from their first bytes only.
    ///
    /// A file that starts with `bplist0` is binary even when it is broken, so
    /// that a damaged binary file is reported as such and never re-read as
    /// text (CF falls back to OpenStep here and "succeeds").
    public static func detect<Bytes: Collection>(_ bytes: Bytes) -> PropertyListFormat where Bytes.Element == UInt8 {
        let magic: [UInt8] = Array("bplist0".utf8)
        if bytes.starts(with: magic) { return .binary }
        let text = TextDecoding.utf8Prefix(of: Array(bytes.prefix(512)), format: .xml)
        var index = text.startIndex
        while index < text.endIndex, TextDecoding.isWhitespace(text[index]) { index += 1 }
        guard index < text.endIndex else { return .openStep }
        if text[index] == UInt8(ascii: "<") {
            // `<?xml`, `<!DOCTYPE`, `<!--` or `<plist`: XML. `<0a1b>` hex data: OpenStep.
            let next = index + 1 < text.endIndex ? text[index + 1] : 0
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") || next == UInt8(ascii: "p") { return .xml }
            if next == UInt8(ascii: "d") || next == UInt8(ascii: "a") || next == UInt8(ascii: "s") { return .xml }
        }
        if text[index] == UInt8(ascii: "[") { return .json }
        return .openStep
    }
}
