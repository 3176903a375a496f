import StorageAudit

/// How a storage category is shown: its name, the letter of the plain
/// terminal bar, the terminal colour and the report's colour. One table for
/// `sandbox audit`'s text and the HTML report, so the two always match.
public struct CategoryStyle: Sendable, Hashable {
    /// The name people see ("Application Support").
    public var name: String
    /// The letter that stands for it in an uncoloured bar.
    public var letter: Character
    /// The ANSI SGR foreground colour of the terminal bar (34 is blue).
    public var terminalColour: Int
    /// The report's fill, `#rrggbb`: the iOS system colour of the same hue
    /// as ``terminalColour``.
    public var htmlColour: String
    /// A label's colour on that fill, for contrast.
    public var labelColour: String
}

extension StorageCategory {
    /// How the category is shown (``CategoryStyle``).
    public var style: CategoryStyle {
        switch self {
        case .bundle: CategoryStyle(name: "app", letter: "A", terminalColour: 90, htmlColour: "#8e8e93", labelColour: "#ffffff")
        case .documents: CategoryStyle(name: "Documents", letter: "D", terminalColour: 34, htmlColour: "#0a84ff", labelColour: "#ffffff")
        case .library: CategoryStyle(name: "Library", letter: "L", terminalColour: 33, htmlColour: "#ffcc00", labelColour: "#1c1c1e")
        case .applicationSupport:
            CategoryStyle(name: "Application Support", letter: "S", terminalColour: 35, htmlColour: "#bf5af2", labelColour: "#ffffff")
        case .caches: CategoryStyle(name: "Caches", letter: "C", terminalColour: 36, htmlColour: "#32ade6", labelColour: "#1c1c1e")
        case .tmp: CategoryStyle(name: "tmp", letter: "T", terminalColour: 32, htmlColour: "#34c759", labelColour: "#1c1c1e")
        case .home: CategoryStyle(name: "other", letter: "o", terminalColour: 37, htmlColour: "#d1d1d6", labelColour: "#1c1c1e")
        }
    }
}
