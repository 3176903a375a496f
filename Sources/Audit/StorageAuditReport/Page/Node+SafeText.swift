import Plot

/// An attribute's name and its value, unescaped.
typealias MarkupAttribute = (name: String, value: String)

extension Node {
    /// Text, escaped by ``MarkupText`` (never by Plot's text escaping,
    /// which keeps entity-like sequences).
    static func safeText(_ text: String) -> Node { .raw(MarkupText.escape(text)) }

    /// An attribute whose value is escaped by ``MarkupText`` (Plot writes
    /// attribute values as they are).
    static func safeAttribute(_ name: String, _ value: String) -> Node {
        .attribute(named: name, value: MarkupText.escape(value))
    }

    /// An element of any name (SVG's among them) with these attributes,
    /// escaped, and children.
    static func markup(_ name: String, _ attributes: [MarkupAttribute], _ children: [Node] = []) -> Node {
        .element(named: name, nodes: attributes.map { .safeAttribute($0.name, $0.value) } + children)
    }

    /// A childless element written `<name …/>`, so the page is well-formed XML.
    static func emptyMarkup(_ name: String, _ attributes: [MarkupAttribute]) -> Node {
        .selfClosedElement(named: name, attributes: attributes.map {
            Attribute(name: $0.name, value: MarkupText.escape($0.value))
        })
    }
}
