import Container
import Foundation

/// Moving an app's `Documents` out of the way of backups, the two ways an
/// app can do it: on the launch path (wrong: a large tree outlasts the
/// launch watchdog, which kills the app) or in the background after launch
/// (right: the launch stays fast and the files move with progress).
extension AppContext {
    /// Moves the app's `Documents` on this thread (resuming an interrupted
    /// move) and returns what it did. Called from
    /// `didFinishLaunchingWithOptions` this is the launch-path mistake: if
    /// the watchdog kills the app, the move stops at its next item (as the
    /// killed process would) and resumes at the next run.
    ///
    /// - Throws: ``MigrationError``; `stopped` when the app was killed or
    ///   `progress` threw.
    public func migrateDocuments(to destination: MigrationDestination,
                                 progress: (MigrationProgress) throws -> Void = { _ in }) throws(MigrationError) -> MigrationReport {
        let termination = self.termination
        return try ContainerMigration(container: container, to: destination).run { current in
            if let reason = termination.reason { throw MigrationError(.stopped, "the app was killed (\(reason.rawValue))") }
            try progress(current)
        }
    }

    /// Starts moving the app's `Documents` on a background thread and
    /// returns at once, so `didFinishLaunchingWithOptions` can return: the
    /// way to migrate a large tree. `progress` is called on that thread. If
    /// the app is killed, the move stops at its next item and resumes at the
    /// next run.
    public func startDocumentsMigration(to destination: MigrationDestination,
                                        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }) -> MigrationTask {
        let termination = self.termination
        return ContainerMigration(container: container, to: destination).start { current in
            if let reason = termination.reason { throw MigrationError(.stopped, "the app was killed (\(reason.rawValue))") }
            progress(current)
        }
    }
}

extension Device {
    /// Moves an installed app's `Documents` on this thread, as the system
    /// would on the app's behalf (`sandbox app migrate`); resumes an
    /// interrupted move. `progress` is called with each item done.
    ///
    /// - Throws: ``DeviceErrorCode/notInstalled``; ``MigrationError``.
    public func migrateDocuments(of bundleID: String, to destination: MigrationDestination,
                                 progress: (MigrationProgress) throws -> Void = { _ in }) throws -> MigrationReport {
        let container = try app(bundleID).dataContainer()
        return try ContainerMigration(container: container, to: destination).run(progress: progress)
    }

    /// Where an app's interrupted move stands, or nil when none is pending.
    public func pendingDocumentsMigration(of bundleID: String) throws -> MigrationProgress? {
        let container = try app(bundleID).dataContainer()
        return try ContainerMigration(container: container, to: .caches).pendingProgress()
    }
}
