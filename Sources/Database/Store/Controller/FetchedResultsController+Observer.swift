extension FetchedResultsController {
    /// Refreshes the controller after every commit `observer` sees, from any
    /// connection or process, so its ``updates()`` stream reports other
    /// processes' changes without the app asking. Cancel the task to stop.
    ///
    /// A refresh that fails (the store went away) ends the task; the
    /// controller keeps its last results.
    public func refreshOnCommits(of observer: StoreObserver) -> Task<Void, Never> {
        let commits = observer.commits()
        return Task {
            for await _ in commits {
                if Task.isCancelled { return }
                do { try refresh() } catch { return }
            }
        }
    }
}
