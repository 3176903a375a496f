import Store
import Testing
import TestSupport

@Suite struct ResultsDiffTests {
    private func snapshot(_ sections: [(String, [Int])]) -> ResultsSnapshot<Int> {
        ResultsSnapshot(sections: sections.map {
            ResultsSection(name: $0.0, indexTitle: ResultsSection<Int>.defaultIndexTitle(forSectionName: $0.0), ids: $0.1)
        })
    }

    @Test func anInsertionAndADeletionAreReportedAtTheirOwnSnapshotsPaths() throws {
        let old = snapshot([("A", [1, 2, 3])])
        let new = snapshot([("A", [1, 3, 4])])
        let changes = ResultsDiff.changes(from: old, to: new)
        #expect(changes.contains(.delete(2, at: ResultsIndexPath(section: 0, item: 1))))
        #expect(changes.contains(.insert(4, at: ResultsIndexPath(section: 0, item: 2))))
        #expect(try old.applying(changes) == new)
    }

    @Test func anObjectThatChangesSectionIsAMove() throws {
        let old = snapshot([("A", [1, 2]), ("B", [3])])
        let new = snapshot([("A", [1]), ("B", [2, 3])])
        let changes = ResultsDiff.changes(from: old, to: new, updated: [2])
        #expect(changes == [.move(2, from: ResultsIndexPath(section: 0, item: 1), to: ResultsIndexPath(section: 1, item: 0))])
        #expect(try old.applying(changes) == new)
    }

    @Test func anUpdateInPlaceIsAnUpdateNotAMove() {
        let old = snapshot([("A", [1, 2])])
        let changes = ResultsDiff.changes(from: old, to: old, updated: [2])
        #expect(changes == [.update(2, at: ResultsIndexPath(section: 0, item: 1), newIndexPath: ResultsIndexPath(section: 0, item: 1))])
    }

    @Test func sectionIndexTitlesAreTheCapitalizedFirstLettersOnceEach() {
        let titles = snapshot([("apple", [1]), ("Avocado", [2]), ("banana", [3]), ("", [4])]).sectionIndexTitles
        #expect(titles == ["A", "B"])
    }

    /// Random old and new snapshots over the same identifiers: the change set
    /// always turns the old one into the new one.
    @Test func changeSetsTurnRandomSnapshotsIntoEachOther() throws {
        var random = SeededGenerator(seed: 16)
        for _ in 0..<2_000 {
            let old = randomSnapshot(using: &random)
            let new = randomSnapshot(using: &random)
            let updated = Set((0..<40).filter { _ in Bool.random(using: &random) })
            let changes = ResultsDiff.changes(from: old, to: new, updated: updated)
            #expect(try old.applying(changes) == new)
        }
    }

    private func randomSnapshot(using random: inout SeededGenerator) -> ResultsSnapshot<Int> {
        let names = ["a", "b", "c", "d", "e"].filter { _ in Int.random(in: 0..<3, using: &random) > 0 }
        var sections = names.map { ($0, [Int]()) }
        guard !sections.isEmpty else { return snapshot([]) }
        for id in (0..<40).shuffled(using: &random) where Bool.random(using: &random) {
            sections[Int.random(in: 0..<sections.count, using: &random)].1.append(id)
        }
        return snapshot(sections.filter { !$0.1.isEmpty })
    }
}
