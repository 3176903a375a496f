import Foundation
import TestSupport

/// Executables of this build that the tests launch.
enum BuiltProgram {
    static let packageRoot = BuiltExecutable.packageRoot

    /// The built program `name`, or nil if it was not built.
    static func url(_ name: String) -> URL? { BuiltExecutable.locate(name) }

    static var trampoline: URL? { url("sandbox-confine") }
    static var escapeProbe: URL? { url("escape-probe") }
}
