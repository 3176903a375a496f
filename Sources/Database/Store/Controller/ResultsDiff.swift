/// The change set between two snapshots of a fetched-results controller.
///
/// The controller computes it from two fetches, not from the saves it was
/// told about, so a change made by another process or another connection is
/// reported exactly as one made here.
public enum ResultsDiff {
    /// The changes that turn `old` into `new`.
    ///
    /// Objects present in both keep their place when they are part of the
    /// longest run that stays in order within sections of the same name; every
    /// other surviving object is a move. `updated` names objects whose values
    /// changed: those that kept their place are reported as updates.
    public static func changes<ID>(
        from old: ResultsSnapshot<ID>, to new: ResultsSnapshot<ID>, updated: Set<ID> = []
    ) -> [ResultsChange<ID>] {
        let oldPaths = old.indexPaths()
        let newPaths = new.indexPaths()
        let oldSectionNames = Set(old.sections.map(\.name))
        let newSectionNames = Set(new.sections.map(\.name))
        var changes: [ResultsChange<ID>] = []

        for (index, section) in old.sections.enumerated() where !newSectionNames.contains(section.name) {
            changes.append(.deleteSection(name: section.name, at: index))
        }
        for (index, section) in new.sections.enumerated() where !oldSectionNames.contains(section.name) {
            changes.append(.insertSection(name: section.name, at: index))
        }

        let stable = stayingInPlace(old: old, new: new, oldPaths: oldPaths)
        for (sectionIndex, section) in old.sections.enumerated() {
            for (item, id) in section.ids.enumerated() where newPaths[id] == nil {
                changes.append(.delete(id, at: ResultsIndexPath(section: sectionIndex, item: item)))
            }
        }
        for (sectionIndex, section) in new.sections.enumerated() {
            for (item, id) in section.ids.enumerated() {
                let newPath = ResultsIndexPath(section: sectionIndex, item: item)
                guard let oldPath = oldPaths[id] else {
                    changes.append(.insert(id, at: newPath))
                    continue
                }
                if !stable.contains(id) {
                    changes.append(.move(id, from: oldPath, to: newPath))
                } else if updated.contains(id) {
                    changes.append(.update(id, at: oldPath, newIndexPath: newPath))
                }
            }
        }
        return changes
    }

    /// The surviving objects that need not move: the longest subsequence of
    /// the new order whose old positions increase, among objects whose
    /// section keeps its name.
    private static func stayingInPlace<ID>(
        old: ResultsSnapshot<ID>, new: ResultsSnapshot<ID>, oldPaths: [ID: ResultsIndexPath]
    ) -> Set<ID> {
        var candidates: [(id: ID, oldRank: Int)] = []
        var oldRank = [ID: Int](minimumCapacity: oldPaths.count)
        for (rank, id) in old.allIDs.enumerated() { oldRank[id] = rank }
        for section in new.sections {
            for id in section.ids {
                guard let path = oldPaths[id], let rank = oldRank[id],
                      old.sections[path.section].name == section.name else { continue }
                candidates.append((id, rank))
            }
        }
        return Set(longestIncreasingRun(candidates).map(\.id))
    }

    /// Patience sorting: O(n log n) longest strictly increasing subsequence by `oldRank`.
    private static func longestIncreasingRun<ID>(_ items: [(id: ID, oldRank: Int)]) -> [(id: ID, oldRank: Int)] {
        var tails: [Int] = []          // index into items of the smallest tail of each length
        var previous = [Int](repeating: -1, count: items.count)
        for (index, item) in items.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if items[tails[middle]].oldRank < item.oldRank { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [(id: ID, oldRank: Int)] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.append(items[cursor])
            cursor = previous[cursor]
        }
        return run.reversed()
    }
}
