import OrderedCollections

/// What one encoder, and the containers it hands out, write into.
///
/// A class because an encoder and its containers (and the containers nested
/// in them) all fill it while `encode(to:)` runs. Finished values are stored
/// as plain ``PropertyListValue``s; only containers handed out by
/// `nestedContainer` or `superEncoder`, which may still be written after the
/// call that made them, stay pending until ``finish()``.
final class EncodingNode {
    enum Content: String {
        case empty, null, single = "value", array, dictionary
    }

    var content: Content
    var single: PropertyListValue = .bool(false)
    var elements: [PropertyListValue] = []
    var entries: OrderedDictionary<String, PropertyListValue> = [:]
    /// Elements that are nested containers, filled in by `finish`.
    var pendingElements: [(index: Int, node: EncodingNode)] = []
    /// Entries that are nested containers, filled in by `finish`.
    var pendingEntries: [(key: String, node: EncodingNode)] = []

    init(content: Content = .empty) {
        self.content = content
    }

    /// Makes this node a container of `kind`; `false` if it already holds something else.
    func become(_ kind: Content) -> Bool {
        if content == .empty { content = kind }
        return content == kind
    }

    /// Sets or, for `nil`, removes the entry for `key`. Overwriting keeps
    /// the key's first position, as `OrderedDictionary` does.
    func setEntry(_ value: PropertyListValue?, forKey key: String) {
        if !pendingEntries.isEmpty { pendingEntries.removeAll { $0.key == key } }
        if let value {
            entries[key] = value
        } else {
            entries.removeValue(forKey: key)
        }
    }

    /// Appends an element; `nil` becomes Foundation's `$null` marker, since
    /// leaving it out would shift the elements after it.
    func append(_ value: PropertyListValue?) {
        elements.append(value ?? .string(propertyListNullMarker))
    }

    /// A node for the entry `key`, finished with this one. A second request
    /// for the same key and kind gets the same node, so both writers add to
    /// one container.
    func nestedEntry(forKey key: String, content: Content) -> EncodingNode {
        if content != .empty, let existing = pendingEntries.last(where: { $0.key == key })?.node, existing.content == content {
            return existing
        }
        let node = EncodingNode(content: content)
        setEntry(.dictionary([:]), forKey: key) // reserves the key's position
        pendingEntries.append((key, node))
        return node
    }

    /// A node for the next element, finished with this one.
    func nestedElement(content: Content) -> EncodingNode {
        let node = EncodingNode(content: content)
        pendingElements.append((elements.count, node))
        elements.append(.dictionary([:])) // reserves the element's position
        return node
    }

    /// The finished value; `nil` for a `nil` that was encoded.
    ///
    /// Recursion here only follows pending nodes, which are never made
    /// deeper than the encoder's depth limit.
    func finish() -> PropertyListValue? {
        switch content {
        case .empty:
            // A value that encoded nothing is an empty dictionary, as in Foundation.
            return .dictionary([:])
        case .null:
            return nil
        case .single:
            return single
        case .array:
            guard !pendingElements.isEmpty else { return .array(elements) }
            var result = elements
            for (index, node) in pendingElements {
                result[index] = node.finish() ?? .string(propertyListNullMarker)
            }
            return .array(result)
        case .dictionary:
            guard !pendingEntries.isEmpty else { return .dictionary(entries) }
            var result = entries
            for (key, node) in pendingEntries {
                if let value = node.finish() {
                    result[key] = value
                } else {
                    result.removeValue(forKey: key)
                }
            }
            return .dictionary(result)
        }
    }
}
