import Foundation
import TestSupport

/// Runs `Tests/Oracles/plist_oracle.py`, the independent Python readers and
/// writers (plistlib, biplist) that interop tests compare against.
enum PythonOracle {
    static let script = SharedFixtures.packageRoot.appendingPathComponent("Tests/Oracles/plist_oracle.py")

    static func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.python([script.path] + arguments)
    }
}
