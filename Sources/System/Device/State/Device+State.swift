import FileSystem
import Foundation
import Keychain

extension Device {
    /// Whether the device is locked (the keychain's lock state, shared by
    /// every process using the device).
    public var isLocked: Bool {
        get throws {
            do { return try keychain.deviceState().isLocked } catch {
                throw DeviceError.wrapping(error, path: layout.keychains.path, "read the lock state")
            }
        }
    }

    /// Locks the device: `whenUnlocked` keychain items become unreadable.
    public func lock() throws {
        do { try keychain.lock() } catch { throw DeviceError.wrapping(error, path: layout.keychains.path, "lock the device") }
    }

    /// Unlocks the device (also its first unlock since boot).
    public func unlock() throws {
        do { try keychain.unlock() } catch { throw DeviceError.wrapping(error, path: layout.keychains.path, "unlock the device") }
    }

    /// Starts the device, as a reboot does: finishes interrupted
    /// operations, forgets run records of dead processes, and empties the
    /// `tmp/` of every app that is not running (iOS cleans tmp at start).
    /// Returns what was removed.
    @discardableResult
    public func boot() throws -> PurgeReport {
        try recover()
        try removeStaleRunRecords()
        return try clean(caches: false, progress: nil)
    }

    /// Erases all content and settings (`simctl erase`): every app and its
    /// containers, every keychain item and run record, and the radio
    /// conditions (``network`` is a new device's again). The identity,
    /// device secret and capacity stay.
    ///
    /// - Throws: ``DeviceErrorCode/appRunning`` while an app runs.
    public func erase() throws {
        try withDeviceLock {
            if let running = try runningApps().first {
                throw DeviceError(.appRunning, bundleID: running.bundleID, "\(running.bundleID) is running; terminate it before erasing")
            }
            try RecordFile.write(AppRegistry(), to: layout.registry)
            _ = try? FileSystemPaths.removeTree(atPath: layout.journal.path)
            try sweep(AppRegistry())
            do { try keychain.reset() } catch {
                throw DeviceError.wrapping(error, path: layout.keychains.path, "reset the keychain")
            }
            do throws(FileSystemError) { _ = try FileSystemPaths.removeContents(atPath: layout.run.path) } catch {
                throw DeviceError(error, path: layout.run.path, "remove the run records")
            }
            do throws(FileSystemError) { try FileSystemPaths.removeFile(atPath: layout.networkPlist.path) } catch {
                throw DeviceError(error, path: layout.networkPlist.path, "reset the network conditions")
            }
        }
    }
}
