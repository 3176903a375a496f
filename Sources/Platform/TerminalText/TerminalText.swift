/// Text made safe for a terminal: names from a container or a bundle (a
/// file name, an app's display name) may hold anything an app chose, and a
/// terminal acts on some of it. An escape sequence sets the title or
/// clears the screen, a newline forges an output line, and a bidi override
/// reorders what follows. Every text output that shows such a name passes
/// it through ``escape(_:)``; JSON and HTML have their own escaping.
///
/// As the HTML report shows C0 controls, they become their Control
/// Pictures (␛ for ESC, ␊ for a newline), DEL becomes ␡, and C1 controls
/// and the invisible bidi and line-breaking marks become `<U+202E>`, which
/// shows what is there without acting on it.
public enum TerminalText {
    /// `text` with every control and bidi mark made visible.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F:
                // U+2400 onwards: the Control Pictures (␀, ␁, … ␟).
                escaped.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F:
                escaped += "\u{2421}"
            case _ where needsEscape(scalar):
                escaped += "<U+" + hex(scalar.value) + ">"
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `text`, a whole output of lines, with every control and bidi mark
    /// made visible but its newlines and tabs, which lay the output out.
    /// The last guard of a text output: a name printed without
    /// ``escape(_:)`` can still forge a line, but not set the terminal's
    /// title, clear its screen or reorder what follows.
    public static func escapeLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                line.split(separator: "\t", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\t")
            }
            .joined(separator: "\n")
    }

    /// Whether a terminal would act on `scalar` rather than show it: C0,
    /// DEL, C1, the bidi embeddings, overrides and isolates, the
    /// left-to-right, right-to-left and Arabic letter marks, and the line
    /// and paragraph separators.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// The scalar's value in upper-case hexadecimal, at least 4 digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
