import PropertyList
/// Tearing a graph down without recursion.
///
/// An object's fields hold the next object, so releasing the head of a
/// chain 100,000 objects long would run 100,000 nested `deinit`s and
/// overflow the stack (a hostile archive is exactly such a chain). Instead,
/// an object being freed moves its children onto a work list, and each
/// child that nothing else holds gives up its own children there before it
/// is released: every `deinit` then finds its object already empty.
extension ArchivedObject {
    /// Empties this object's children onto `pending`. Plain arrays and
    /// dictionaries the reader shares are looked into once (`visited`, by
    /// the identity of their storage): a hostile archive's shared plain
    /// values would otherwise be walked 2^n times.
    func moveChildren(into pending: inout [ArchivedObject], visited: inout Set<UnsafeRawPointer>) {
        var values: [ArchivedValue] = Array(fields.values)
        values.append(contentsOf: unkeyed)
        if let foundationValue { values.append(contentsOf: foundationValue.childValues) }
        fields = [:]
        unkeyed = []
        foundationValue = nil
        while let value = values.popLast() {
            switch value {
            case .object(let object): pending.append(object)
            case .array(let elements):
                let identity = SharedStorage.identity(of: elements)
                if let identity, !visited.insert(identity).inserted { continue }
                values.append(contentsOf: elements)
            case .dictionary(let entries):
                let identity = SharedStorage.identity(of: entries)
                if let identity, !visited.insert(identity).inserted { continue }
                values.append(contentsOf: entries.values)
            case .null, .scalar: break
            }
        }
    }

    /// Called from `deinit`: releases the children one at a time.
    func releaseChildrenIteratively() {
        var pending: [ArchivedObject] = []
        var visited: Set<UnsafeRawPointer> = []
        moveChildren(into: &pending, visited: &visited)
        while var object = pending.popLast() {
            // Only an object nobody else holds may be emptied: it is going
            // away with this reference, and its children with it.
            if isKnownUniquelyReferenced(&object) { object.moveChildren(into: &pending, visited: &visited) }
        }
    }
}

extension ArchivedFoundationValue {
    /// Whether this reading holds generic values at all (cheap to ask).
    var holdsValues: Bool {
        switch self {
        case .array, .set, .orderedSet, .countedSet, .dictionary: true
        case .string, .number, .data, .date, .uuid, .url, .null, .special: false
        }
    }

    /// The generic values this reading holds (elements, keys, values).
    var childValues: [ArchivedValue] {
        switch self {
        case .array(let values), .set(let values), .orderedSet(let values): values
        case .countedSet(let elements): elements.map(\.element)
        case .dictionary(let entries): entries.flatMap { [$0.key, $0.value] }
        case .string, .number, .data, .date, .uuid, .url, .null, .special: []
        }
    }
}
