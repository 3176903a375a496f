import CodedErrors
import FileSystem

/// A refused or failed device operation: what went wrong (``DeviceErrorCode``),
/// the app and path it concerned, and a message for people.
///
/// ```swift
/// do { try device.uninstall("com.example.notes") }
/// catch let error as DeviceError where error.code == .notInstalled { … }
/// ```
public typealias DeviceError = CodedError<DeviceErrorCode>

/// The kinds of failure of a ``DeviceError``.
public enum DeviceErrorCode: String, ErrorCode, CaseIterable {
    public typealias Context = DeviceErrorContext

    /// The directory is not a device (no readable `device.plist`).
    case notADevice
    /// A device already exists at the directory.
    case deviceExists
    /// No app with the bundle identifier is installed.
    case notInstalled
    /// `install` of an app that is already installed (use `update`).
    case alreadyInstalled
    /// The bundle is malformed: no `Info.plist`, a missing key, a bad
    /// identifier, no executable.
    case invalidBundle
    /// The bundle's files do not match its seal.
    case sealMismatch
    /// The app is running; the operation needs it terminated.
    case appRunning
    /// A lifecycle transition that the app's current state does not allow.
    case invalidTransition
    /// The app took longer to launch than the launch watchdog allows and
    /// was killed (iOS's termination code `0x8badf00d`); the device's
    /// ``Device/lastLaunchReport(_:)`` describes the kill.
    case watchdogTimeout
    /// A setting's value is out of range (a watchdog limit that is not
    /// a positive number of seconds).
    case invalidSetting
    /// A container kind the app does not have (no app groups).
    case noSuchContainer
    /// The device's own records are malformed.
    case corrupt
    /// The disk is full.
    case diskFull
    /// Another system or library failure.
    case io

    /// The message, with the path when there is one.
    public static func describe(_ error: DeviceError) -> String {
        guard let path = error.path, !error.message.contains(path) else { return error.message }
        return "\(error.message): \(path)"
    }

    /// ``diskFull`` is ``CodedErrors/FailureKind/noSpace``.
    public var failureKind: FailureKind? { self == .diskFull ? .noSpace : nil }
}

/// What a ``DeviceError`` concerns.
public struct DeviceErrorContext: Hashable, Sendable {
    /// The app concerned, if any.
    public var bundleID: String?
    /// The file or directory concerned, if any.
    public var path: String?
}

extension DeviceError {
    /// Creates an error.
    public init(_ code: Code, bundleID: String? = nil, path: String? = nil, _ message: String) {
        self.init(code, message, context: DeviceErrorContext(bundleID: bundleID, path: path))
    }

    /// Maps a failed file-system call, kept as the cause: a full disk or
    /// quota is ``DeviceErrorCode/diskFull``, anything else ``DeviceErrorCode/io``.
    init(_ failure: FileSystemError, bundleID: String? = nil, path: String, _ action: String) {
        self.init(failure.isNoSpace ? .diskFull : .io, bundleID: bundleID, path: path, "cannot \(action)")
        underlying = failure
    }

    /// Wraps another module's error, kept as the cause, and keeps a
    /// `DeviceError` as it is: ``DeviceErrorCode/diskFull`` when the
    /// error's chain holds a full disk (a container's `.diskFull`, a
    /// backup's `ENOSPC`), else ``DeviceErrorCode/io``.
    static func wrapping(_ error: any Error, bundleID: String? = nil, path: String? = nil, _ action: String) -> DeviceError {
        if let error = error as? DeviceError { return error }
        return DeviceError(error.isDiskFull ? .diskFull : .io, bundleID: bundleID, path: path, "cannot \(action)").caused(by: error)
    }
}
