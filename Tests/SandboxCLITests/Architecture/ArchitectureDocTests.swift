import Foundation
import TestSupport
import Testing

/// The module graph in `docs/ARCHITECTURE.md` is generated from
/// `Package.swift` by `scripts/architecture-graph`, so it cannot drift from
/// the package the way the hand-drawn one did (issue 30): a new dependency,
/// module or layer that the doc does not show fails here, and so does any
/// module that uses a module of a higher layer.
@Suite struct ArchitectureDocTests {
    /// `scripts/architecture-graph --check`, run from the package root with
    /// `python3` from `PATH`. It reads the package with `swift package
    /// dump-package` in a scratch directory of its own, so it does not wait
    /// for the `.build` lock this `swift test` holds.
    @Test func theModuleGraphIsThePackages() throws {
        let root = BuiltExecutable.packageRoot
        let script = root.appendingPathComponent("scripts/architecture-graph")
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--check"], in: root)
        #expect(result.status == 0, """
            scripts/architecture-graph --check ended with \(result.status) \
            (run scripts/architecture-graph --write, then review docs/ARCHITECTURE.md):
            \(result.output)\(result.standardError)
            """)
    }
}
