/// Text made safe for the report's markup, in element content and in
/// double-quoted attribute values alike.
///
/// Plot escapes text nodes but leaves what looks like an entity alone (a
/// file named `R&D;x` would reach the page as the undefined entity `&D;`),
/// and writes attribute values as they are; the report's text is file
/// names, which may hold anything, so it is escaped here, completely, and
/// handed to Plot as raw text. The page stays well-formed XML as well as
/// HTML: characters XML 1.0 forbids (C0 controls; U+FFFE, U+FFFF) become
/// visible stand-ins rather than disappearing.
enum MarkupText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\u{00}"..."\u{1F}":
                // U+2400 onwards: the Control Pictures (␀, ␁, … ␟).
                escaped.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case "\u{7F}": escaped += "\u{2421}"
            case "\u{80}"..."\u{9F}", "\u{FFFE}", "\u{FFFF}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
