

/// What a fetched-results controller shows: its objects, in sections, in order.
///
/// A snapshot holds identifiers only; the objects themselves are read in
/// batches as they are shown. Two snapshots are compared by
/// ``ResultsDiff`` to tell a table view what moved.
public struct ResultsSnapshot<ID: Hashable & Sendable>: Sendable, Hashable {
    public var sections: [ResultsSection<ID>]

    public init(sections: [ResultsSection<ID>] = []) {
        self.sections = sections
    }

    /// The section index titles, one per distinct title in section order
    /// (UIKit's `sectionIndexTitles`).
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return sections.compactMap { section in
            guard let title = section.indexTitle, seen.insert(title).inserted else { return nil }
            return title
        }
    }

    /// Every identifier, section after section.
    public var allIDs: [ID] { sections.flatMap(\.ids) }

    /// The identifiers at these positions counted across sections, without
    /// flattening the whole snapshot.
    public func ids(inFlatRange range: Range<Int>) -> [ID] {
        var result: [ID] = []
        result.reserveCapacity(range.count)
        var offset = 0
        for section in sections {
            let sectionRange = offset..<(offset + section.ids.count)
            let overlap = sectionRange.clamped(to: range)
            if !overlap.isEmpty {
                result += section.ids[(overlap.lowerBound - offset)..<(overlap.upperBound - offset)]
            }
            offset += section.ids.count
            if offset >= range.upperBound { break }
        }
        return result
    }

    /// The number of objects in all sections.
    public var count: Int { sections.reduce(0) { $0 + $1.ids.count } }

    /// The identifier at an index path, or `nil` outside the snapshot.
    public subscript(indexPath: ResultsIndexPath) -> ID? {
        guard sections.indices.contains(indexPath.section),
              sections[indexPath.section].ids.indices.contains(indexPath.item) else { return nil }
        return sections[indexPath.section].ids[indexPath.item]
    }

    /// Where each identifier is.
    public func indexPaths() -> [ID: ResultsIndexPath] {
        var paths = [ID: ResultsIndexPath](minimumCapacity: count)
        for (sectionIndex, section) in sections.enumerated() {
            for (item, id) in section.ids.enumerated() {
                paths[id] = ResultsIndexPath(section: sectionIndex, item: item)
            }
        }
        return paths
    }
}

/// One section of a ``ResultsSnapshot``: the objects whose section key path
/// has the same value.
public struct ResultsSection<ID: Hashable & Sendable>: Sendable, Hashable {
    /// The section key path's value as text; `""` for `nil`, as Core Data does.
    public var name: String
    /// The title in the section index: by default the name's capitalized
    /// first letter (`NSFetchedResultsController.sectionIndexTitle(forSectionName:)`).
    public var indexTitle: String?
    public var ids: [ID]

    public init(name: String, indexTitle: String? = nil, ids: [ID]) {
        self.name = name
        self.indexTitle = indexTitle
        self.ids = ids
    }

    /// Core Data's default index title for a section name: its first
    /// character, capitalized; none for an empty name.
    public static func defaultIndexTitle(forSectionName name: String) -> String? {
        guard let first = name.first else { return nil }
        return String(first).uppercased()
    }
}

/// A position in a ``ResultsSnapshot``: a section and an item in it, as a
/// table view's `IndexPath` has them.
public struct ResultsIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}

/// A change set that does not fit the snapshot it is applied to.
public struct ResultsChangeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The change that could not be applied, described.
    public var change: String
    public var reason: String

    public var description: String { "cannot apply \(change): \(reason)" }
}

extension ResultsSnapshot {
    /// This snapshot with `changes` applied as a table view applies them:
    /// removals (deletions and moves' sources) from the last index path to
    /// the first, section deletions from the last, section insertions from
    /// the first, then arrivals (insertions and moves' destinations) from the
    /// first index path to the last.
    public func applying(_ changes: [ResultsChange<ID>]) throws(ResultsChangeError) -> ResultsSnapshot {
        var removals: [(ResultsIndexPath, ID)] = []
        var arrivals: [(ResultsIndexPath, ID)] = []
        var sectionDeletions: [Int] = []
        var sectionInsertions: [(Int, String)] = []
        for change in changes {
            switch change {
            case let .insertSection(name, index): sectionInsertions.append((index, name))
            case let .deleteSection(_, index): sectionDeletions.append(index)
            case let .insert(id, path): arrivals.append((path, id))
            case let .delete(id, path): removals.append((path, id))
            case let .move(id, from, to):
                removals.append((from, id))
                arrivals.append((to, id))
            case .update: continue
            }
        }
        var result = self
        for (path, id) in removals.sorted(by: { $0.0 > $1.0 }) {
            guard result[path] == id else {
                throw ResultsChangeError(change: "removal of \(id) at \(path)", reason: "another object is there")
            }
            result.sections[path.section].ids.remove(at: path.item)
        }
        for index in sectionDeletions.sorted(by: >) {
            guard result.sections.indices.contains(index), result.sections[index].ids.isEmpty else {
                throw ResultsChangeError(change: "deletion of section \(index)", reason: "it is missing or not empty")
            }
            result.sections.remove(at: index)
        }
        for (index, name) in sectionInsertions.sorted(by: { $0.0 < $1.0 }) {
            guard index <= result.sections.count else {
                throw ResultsChangeError(change: "insertion of section \(name) at \(index)", reason: "past the end")
            }
            result.sections.insert(ResultsSection(name: name, indexTitle: ResultsSection<ID>.defaultIndexTitle(forSectionName: name), ids: []),
                                   at: index)
        }
        for (path, id) in arrivals.sorted(by: { $0.0 < $1.0 }) {
            guard result.sections.indices.contains(path.section), path.item <= result.sections[path.section].ids.count else {
                throw ResultsChangeError(change: "arrival of \(id) at \(path)", reason: "past the end")
            }
            result.sections[path.section].ids.insert(id, at: path.item)
        }
        return result
    }
}
