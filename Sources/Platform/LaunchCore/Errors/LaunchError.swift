import CodedErrors

/// A launch that could not start, a confinement that could not be applied,
/// or a process that could not be waited for or signalled: what went wrong
/// (``LaunchErrorCode``), the path or process concerned, and a message for people.
///
/// ```swift
/// do { _ = try launch.start() }
/// catch let error as LaunchError where error.code == .landlockUnavailable { … }
/// ```
public typealias LaunchError = CodedError<LaunchErrorCode>

/// The kinds of failure of a ``LaunchError``.
public enum LaunchErrorCode: String, ErrorCode {
    public typealias Context = LaunchErrorContext

    /// The `sandbox-confine` trampoline was not found.
    case trampolineNotFound
    /// The program to launch does not exist or is not executable.
    case executableNotFound
    /// A path a rule requires does not exist.
    case pathNotFound
    /// ``ConfinementMode/required`` was asked for on a kernel without Landlock.
    case landlockUnavailable
    /// The kernel refused the ruleset or the restriction.
    case confinementFailed
    /// A rule's path beneath its container goes through a symbolic link,
    /// which is never followed (it would grant the link's target).
    case linkRefused
    /// A data directory could not be handed to the app's user (`chown`).
    case ownershipFailed
    /// The app's user could not be taken on (or privileges remained after
    /// dropping them); the program is not run.
    case privilegeDropFailed
    /// The trampoline process could not be created.
    case spawnFailed
    /// The program could not be executed (inside the confinement).
    case execFailed
    /// Waiting for the process failed.
    case waitFailed
    /// The process could not be signalled.
    case signalFailed
    /// The launch description is malformed (an empty argument list, a
    /// bad rule, a NUL byte).
    case invalidRequest
    /// The trampoline answered something this launcher cannot read
    /// (a different build of it, or it crashed).
    case protocolError

    /// The message and the path.
    public static func describe(_ error: LaunchError) -> String {
        error.path.isEmpty ? error.message : "\(error.message): \(error.path)"
    }
}

/// Where a launch failed: the path or process, and the system's error number.
public struct LaunchErrorContext: Hashable, Sendable {
    /// The path (or process id) concerned; empty when none is.
    public var path: String
    /// The system error number behind the failure, when there was one.
    public var errno: Int32?
}

extension LaunchError {
    /// Creates an error.
    public init(_ code: Code, path: String = "", errno: Int32? = nil, _ message: String) {
        self.init(code, message, context: LaunchErrorContext(path: path, errno: errno))
    }

    /// A failed system call as a typed error.
    package init(_ code: Code, _ failure: SystemFailure, path: String = "", _ action: String) {
        self.init(code, path: path, errno: failure.errno, "cannot \(action): \(Platform.describe(failure.errno))")
    }
}
