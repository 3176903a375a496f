import Foundation

/// Prints the demo's story: numbered steps, what happened, and checks that
/// the demo verified. A check that fails stops the demo with a
/// ``DemoError``, so the narration never claims what did not happen.
struct DemoNarrator {
    private(set) var step = 0
    let write: (String) -> Void

    init(write: @escaping (String) -> Void = { print($0) }) {
        self.write = write
    }

    mutating func begin(_ title: String) {
        step += 1
        write("")
        write("\(step). \(title)")
    }

    func say(_ line: String) { write("   " + line) }

    func show(_ lines: [String]) { lines.forEach(write) }

    /// Prints `claim` with a check mark if `holds`, or throws.
    func check(_ holds: Bool, _ claim: String) throws {
        guard holds else { throw DemoError(step: step, claim: claim) }
        write("   ✓ " + claim)
    }
}

/// A claim the demo makes about the system that turned out false: the step
/// and the claim, so the failure says what iOS behaviour was not reproduced.
struct DemoError: Error, CustomStringConvertible {
    var step: Int
    var claim: String
    var description: String { "demo step \(step) failed: expected that \(claim)" }
}
