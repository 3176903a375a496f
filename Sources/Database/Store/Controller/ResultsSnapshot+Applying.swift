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
