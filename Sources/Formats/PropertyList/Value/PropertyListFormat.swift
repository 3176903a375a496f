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
    /// A file that starts with `bplist` is binary even when it is broken, so
    /// that a damaged binary file is reported as such and never re-read as
    /// text (CF falls back to OpenStep here and "succeeds").
    public static func detect<Bytes: Collection>(_ bytes: Bytes) -> PropertyListFormat where Bytes.Element == UInt8 {
        let magic: [UInt8] = Array("bplist".utf8)
        if bytes.starts(with: magic) { return .binary }
        let text = TextDecoding.utf8Prefix(of: Array(bytes.prefix(512)), format: .xml)
        var index = text.startIndex
        while index < text.endIndex, TextDecoding.isWhitespace(text[index]) { index += 1 }
        guard index < text.endIndex else { return .openStep }
        if text[index] == UInt8(ascii: "<") {
            // `<?xml`, `<!DOCTYPE`, `<!--` or `<plist`: XML. `<0a1b>` hex data: OpenStep.
            // A tag starts with a letter, `?` or `!`; OpenStep data holds
            // only hex digits and whitespace up to `>`.
            var probe = index + 1
            while probe < text.endIndex, Self.isHexDigitOrSpace(text[probe]) { probe += 1 }
            let stop = probe < text.endIndex ? text[probe] : UInt8(ascii: ">")
            if stop != UInt8(ascii: ">") && stop != UInt8(ascii: "*") && stop != UInt8(ascii: "[") { return .xml }
            return .openStep
        }
        if text[index] == UInt8(ascii: "[") { return .json }
        if text[index] == UInt8(ascii: "{"), Self.firstKeyIsFollowedByColon(text[(index + 1)...]) { return .json }
        return .openStep
    }

    /// Whether `{` opens a JSON object: its first key, a quoted string, is
    /// followed by `:` (OpenStep puts `=` there).
    static func firstKeyIsFollowedByColon(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        while index < text.endIndex, TextDecoding.isWhitespace(text[index]) { index += 1 }
        guard index < text.endIndex, text[index] == UInt8(ascii: "\"") else { return false }
        index += 1
        while index < text.endIndex, text[index] != UInt8(ascii: "\"") {
            index += text[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        while index < text.endIndex, TextDecoding.isWhitespace(text[index]) { index += 1 }
        return index < text.endIndex && text[index] == UInt8(ascii: ":")
    }

    static func isHexDigitOrSpace(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: TextDecoding.isWhitespace(byte)
        }
    }
}
