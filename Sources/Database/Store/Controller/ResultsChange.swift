/// One change between two ``ResultsSnapshot``s, as
/// `NSFetchedResultsControllerDelegate` reports it.
///
/// Old positions refer to the snapshot before the change set and new ones to
/// the snapshot after it. Applied in the order table views apply them
/// (``ResultsSnapshot/applying(_:)``): deletions and moves' removals from the
/// end first, then section deletions, section insertions, and insertions and
/// moves' arrivals from the start, the old snapshot becomes the new one.
public enum ResultsChange<ID: Hashable & Sendable>: Sendable, Hashable {
    case insertSection(name: String, at: Int)
    case deleteSection(name: String, at: Int)
    case insert(ID, at: ResultsIndexPath)
    case delete(ID, at: ResultsIndexPath)
    /// The object changed place; a move may also carry changed values.
    case move(ID, from: ResultsIndexPath, to: ResultsIndexPath)
    /// The object kept its place and its values changed.
    case update(ID, at: ResultsIndexPath, newIndexPath: ResultsIndexPath)
}
