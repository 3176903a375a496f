import FileSystem

/// A refused or failed device operation: what went wrong (``Code``), the app
/// and path it concerned, and a message for people.
///
/// ```swift
/// do { try device.uninstall("com.example.notes") }
/// catch let error as DeviceError where error.code == .notInstalled { … }
/// ```
public struct DeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
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
    }

    /// What went wrong.
    public var code: Code
    /// The app concerned, if any.
    public var bundleID: String?
    /// The file or directory concerned, if any.
    public var path: String?
    /// A lower-case phrase for people, without a final period.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, bundleID: String? = nil, path: String? = nil, _ message: String) {
        self.code = code
        self.bundleID = bundleID
        self.path = path
        self.message = message
    }

    /// The message, with the path when there is one.
    public var description: String {
        guard let path, !message.contains(path) else { return message }
        return "\(message): \(path)"
    }
}

extension DeviceError {
    /// Maps a failed file-system call: a full disk or quota is
    /// ``Code/diskFull``, anything else ``Code/io``.
    init(_ failure: FileSystemError, bundleID: String? = nil, path: String, _ action: String) {
        self.init(failure.isNoSpace ? .diskFull : .io, bundleID: bundleID, path: path, "cannot \(action): \(failure.reason)")
    }

    /// Wraps another module's error, keeping a `DeviceError` as it is.
    static func wrapping(_ error: any Error, bundleID: String? = nil, path: String? = nil, _ action: String) -> DeviceError {
        if let error = error as? DeviceError { return error }
        return DeviceError(.io, bundleID: bundleID, path: path, "cannot \(action): \(error)")
    }
}
