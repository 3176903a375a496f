import PropertyList
import KeyedArchive

/// How many times each object of a generic graph is referenced, found by an
/// iterative walk (an archive's chains can be longer than any stack).
struct ArchiveReferenceCounts {
    private var counts: [ObjectIdentifier: Int] = [:]

    init<Roots: Sequence>(roots: Roots) where Roots.Element == ArchivedValue {
        var pending = Array(roots)
        // Plain arrays and dictionaries the reader shares (a hostile
        // archive's "bomb") are walked once, by the identity of their storage.
        var visitedPlain: Set<UnsafeRawPointer> = []
        while let value = pending.popLast() {
            switch value {
            case .object(let object) where object.archiveClass != nil:
                counts[ObjectIdentifier(object), default: 0] += 1
                if counts[ObjectIdentifier(object)] == 1 {
                    pending.append(contentsOf: object.fields.values)
                    pending.append(contentsOf: object.unkeyed)
                }
            case .array(let elements):
                let identity = SharedStorage.identity(of: elements)
                if let identity, !visitedPlain.insert(identity).inserted { continue }
                pending.append(contentsOf: elements)
            case .dictionary(let entries):
                let identity = SharedStorage.identity(of: entries)
                if let identity, !visitedPlain.insert(identity).inserted { continue }
                pending.append(contentsOf: entries.values)
            default:
                break
            }
        }
    }

    /// Whether `object` is referenced from more than one place.
    func isShared(_ object: ArchivedObject) -> Bool { (counts[ObjectIdentifier(object)] ?? 0) > 1 }
}
