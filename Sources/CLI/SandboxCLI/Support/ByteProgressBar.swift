import FileSystem
import Foundation

/// A one-line progress bar on standard error, drawn only when standard
/// error is a terminal (so logs and pipes get no control characters), and
/// redrawn at most every tenth of a second. Safe to call from worker threads.
final class ByteProgressBar: Sendable {
    private struct Drawn {
        var total: Int64
        var done: Int64 = 0
        var lastDraw = Date.distantPast
    }

    private let title: String
    private let enabled: Bool
    private let state: Locked<Drawn>

    /// A bar for `total` units (bytes), or an invisible one when standard
    /// error is not a terminal or `quiet` is set.
    init(_ title: String, total: Int64, quiet: Bool = false) {
        self.title = title
        state = Locked(Drawn(total: max(total, 1)))
        enabled = !quiet && FileOutput.standardErrorIsTerminal
    }

    /// Adds `amount` units and redraws if due.
    func advance(by amount: Int64) {
        guard enabled else { return }
        state.withLock { state in
            state.done += amount
            if Date().timeIntervalSince(state.lastDraw) >= 0.1 { draw(&state) }
        }
    }

    /// Sets the units done (for callers that report totals).
    func set(_ value: Int64) {
        guard enabled else { return }
        state.withLock { state in
            state.done = value
            if Date().timeIntervalSince(state.lastDraw) >= 0.1 { draw(&state) }
        }
    }

    /// Shows `done` of `total` units when the total is only known as work goes.
    func set(fraction done: Int64, of total: Int64) {
        guard enabled, total > 0 else { return }
        state.withLock { $0.total = total }
        set(done)
    }

    /// Draws the full bar and ends the line.
    func finish() {
        guard enabled else { return }
        state.withLock { state in
            state.done = state.total
            draw(&state)
            FileOutput.writeToStandardError("\n")
        }
    }

    private func draw(_ state: inout Drawn) {
        state.lastDraw = Date()
        let (done, total) = (state.done, state.total)
        let fraction = min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let megabytes = String(format: "%.1f/%.1f MB", Double(done) / 1e6, Double(total) / 1e6)
        FileOutput.writeToStandardError("\r\(title) \(bar) \(Int(fraction * 100))% \(megabytes)")
    }
}
