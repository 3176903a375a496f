import FileSystem

/// A one-line "done of total" bar on standard error, redrawn in place,
/// drawn only on a terminal.
final class CountProgressBar: Sendable {
    private let minimumTotal: Int
    private let lastDrawn = Locked(-1)

    private init(minimumTotal: Int) { self.minimumTotal = minimumTotal }

    /// A bar when standard error is a terminal, else nil.
    static func forStandardError(minimumTotal: Int) -> CountProgressBar? {
        FileOutput.standardErrorIsTerminal ? CountProgressBar(minimumTotal: minimumTotal) : nil
    }

    func update(done: Int, total: Int) {
        guard total >= minimumTotal else { return }
        let percent = min(100, done * 100 / max(total, 1))
        let changed = lastDrawn.withLock { last in
            guard last != percent else { return false }
            last = percent
            return true
        }
        guard changed else { return }
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileOutput.writeToStandardError("\r[\(bar)] \(percent)% \(done)/\(total)")
    }

    func finish() {
        if lastDrawn.withLock({ $0 }) >= 0 { FileOutput.writeToStandardError("\n") }
    }
}
