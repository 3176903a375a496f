import Container
import FileSystem
import Foundation
import Launch
import NetworkConditions
import SystemPackage

extension Device {
    /// Starts an installed app's executable as its own process, inside its
    /// sandbox: `HOME`, `TMPDIR`, the `XDG_*` variables and
    /// `SANDBOX_CONTAINER` point into its data container, and where the
    /// kernel has Landlock the process can reach only the system (read-only),
    /// its bundle (read and execute) and its container's `Documents`,
    /// `Library` and `tmp` (read-write) — see `ConfinedLaunch.app`.
    ///
    /// The bundle is checked against its seal first; a modified bundle is
    /// refused. The run is recorded under `run/`, so ``isRunning(_:)``,
    /// purge, update and uninstall see the app running until it ends
    /// (``terminate(_:timeout:)``, or `wait`).
    ///
    /// The launch honours the device's radio conditions (``network``): the
    /// result's ``AppProcess/network`` says whether the airplane-mode alert
    /// is shown, and an app whose `Info.plist` has `UIRequiresPersistentWiFi`
    /// true holds the Wi-Fi power timer until it ends.
    /// With a watchdog (``ProcessLaunchOptions/watchdog``) the call returns
    /// once the app says it finished launching, or kills it past the limit.
    ///
    /// - Parameters:
    ///   - wait: wait for the process to end; its status is in the result's
    ///     `exitStatus` and the run record is removed.
    /// - Throws: ``DeviceError`` `notInstalled`, `appRunning`, `sealMismatch`,
    ///   `watchdogTimeout`;
    ///   `LaunchError` when the process cannot start (no trampoline, exec
    ///   refused, `.required` confinement without Landlock).
    public func launch(_ bundleID: String, arguments: [String] = [], environment: [String: String] = [:],
                       wait: Bool = false, options: ProcessLaunchOptions = ProcessLaunchOptions()) throws -> AppProcess {
        let app = try self.app(bundleID)
        guard try !isRunning(bundleID) else {
            throw DeviceError(.appRunning, bundleID: bundleID, "\(bundleID) is already running")
        }
        try verifySealBeforeLaunch(app)
        try protectSecrets()
        var environment = environment
        let watchdog = try armWatchdog(options.watchdog, for: app, environment: &environment)
        var launch = ConfinedLaunch.app(
            executable: app.bundleContainer.appendingPathComponent(app.bundle.info.executable),
            bundle: app.bundleContainer, container: app.dataContainerURL,
            groups: app.groupContainers.keys.sorted().compactMap { app.groupContainers[$0] },
            arguments: arguments, environment: environment)
        launch.mode = options.confinement
        launch.user = options.user
        launch.standardInput = options.standardInput
        launch.standardOutput = options.standardOutput
        launch.standardError = options.standardError
        launch.printsWarnings = options.printsWarnings
        let process = try launch.start()
        let network: NetworkLaunchReport
        do {
            try writeRunRecord(RunRecord(bundleID: bundleID, pid: process.pid, state: .active, kind: "process"))
            network = try recordNetworkLaunch(of: app)
        } catch {
            // Never leave a process the device does not know about.
            try? process.terminate(.kill)
            _ = try? process.wait()
            removeRunRecord(bundleID)
            throw error
        }
        if let watchdog { try awaitLaunchFinished(process, bundleID: bundleID, watchdog) }
        var result = AppProcess(bundleID: bundleID, process: process, network: network)
        if wait {
            result.exitStatus = try process.wait()
            removeRunRecord(bundleID)
        }
        return result
    }

    /// Delivers the will-terminate transition to a running app and records
    /// that it no longer runs. A launched process gets SIGTERM (its chance
    /// to save state), then SIGKILL if it is still alive after `timeout`
    /// seconds; an ``AppRun`` of this process gets `terminate()`.
    ///
    /// - Throws: ``DeviceError`` `invalidTransition` for an in-process run
    ///   that belongs to another process (signalling it would end that whole
    ///   process).
    @discardableResult
    public func terminate(_ bundleID: String,
                          timeout: TimeInterval = ProcessLaunchOptions.defaultTerminationTimeout) throws -> TerminationOutcome {
        guard let record = try runRecord(bundleID), record.isAlive else {
            removeRunRecord(bundleID)
            return .notRunning
        }
        if record.kind == "in-process" {
            guard record.pid == ProcessIdentity.current.pid,
                  let run = LiveRuns.shared.all.first(where: {
                      $0.bundleID == bundleID && $0.device.root.standardizedFileURL == root.standardizedFileURL
                  }) else {
                throw DeviceError(.invalidTransition, bundleID: bundleID,
                                  "\(bundleID) runs in process \(record.pid); terminate it through its AppRun there")
            }
            try run.terminate()
            return .terminated
        }
        let identity = ProcessIdentity(pid: record.pid, startTime: record.processStartTime)
        defer { removeRunRecord(bundleID) }
        guard try identity.send(.terminate) else { return .notRunning }
        if identity.waitForExit(timeout: timeout) { return .terminated }
        try identity.send(.kill)
        _ = identity.waitForExit(timeout: timeout)
        return .killed
    }

    /// Refuses a bundle that no longer matches the seal made at install.
    private func verifySealBeforeLaunch(_ app: InstalledApp) throws {
        let status: BundleSealStatus
        do { status = try app.bundle.verifySeal() } catch {
            throw DeviceError.wrapping(error, bundleID: app.bundleID, path: app.bundleContainer.path, "check the bundle seal")
        }
        switch status {
        case .valid:
            return
        case .unsealed:
            throw DeviceError(.sealMismatch, bundleID: app.bundleID, path: app.bundleContainer.path,
                              "the installed bundle has lost its seal; reinstall \(app.bundleID)")
        case .modified(let paths):
            throw DeviceError(.sealMismatch, bundleID: app.bundleID, path: app.bundleContainer.path,
                              "the installed bundle was modified since install (\(paths.joined(separator: ", "))); reinstall \(app.bundleID)")
        }
    }
}

/// The launch watchdog for apps started as processes (see ``ProcessWatchdog``).
extension Device {
    /// What a watched launch waits for.
    struct ArmedWatchdog {
        /// The file the app creates when it has finished launching.
        let marker: URL
        let limit: TimeInterval
    }

    /// The name of the file, in the app's `tmp`, that says it finished launching.
    static let launchFinishedName = ".com.apple.sandbox.launch-finished"

    /// Removes a stale marker and names the new one in the app's
    /// environment; nil when the launch is not watched.
    func armWatchdog(_ watchdog: ProcessWatchdog, for app: InstalledApp,
                     environment: inout [String: String]) throws -> ArmedWatchdog? {
        let limit: TimeInterval
        switch watchdog {
        case .off: return nil
        case .device: limit = launchWatchdogLimit
        case .seconds(let seconds): limit = seconds
        }
        let marker = app.dataContainerURL.appendingPathComponent(ContainerDirectory.tmp.relativePath + "/" + Self.launchFinishedName)
        do { try FileSystemPaths.removeFile(atPath: marker.path) } catch {
            if !error.isNotFound { throw DeviceError(error, bundleID: app.bundleID, path: marker.path, "clear the launch marker") }
        }
        environment[ProcessWatchdog.launchFinishedVariable] = marker.path
        return ArmedWatchdog(marker: marker, limit: limit)
    }

    /// Waits for the app to say it finished launching; past the limit kills
    /// it (SIGKILL), reports the kill and throws.
    func awaitLaunchFinished(_ process: LaunchedProcess, bundleID: String, _ watchdog: ArmedWatchdog) throws {
        let started = Date()
        var report = LaunchReport(bundleID: bundleID, started: started, duration: 0, limit: watchdog.limit, outcome: .finished)
        while true {
            report.duration = Date().timeIntervalSince(started)
            if FileSystemPaths.exists(atPath: watchdog.marker.path) {
                try? FileSystemPaths.removeFile(atPath: watchdog.marker.path)
                try? writeLaunchReport(report)
                return
            }
            if let status = try? process.poll() {
                // Ended before it finished launching: a failed launch, not a kill.
                removeRunRecord(bundleID)
                report.outcome = .failed
                try? writeLaunchReport(report)
                throw DeviceError(.io, bundleID: bundleID, "\(bundleID) ended (\(status)) before it finished launching")
            }
            if report.duration >= watchdog.limit { break }
            Thread.sleep(forTimeInterval: min(0.005, max(0, watchdog.limit - report.duration)))
        }
        try? process.terminate(.kill)
        _ = try? process.wait()
        removeRunRecord(bundleID)
        report.outcome = .killed
        report.reason = .watchdogTimeout
        report.terminationCode = LaunchWatchdog.terminationCode
        try? writeLaunchReport(report)
        throw DeviceError(.watchdogTimeout, bundleID: bundleID, report.summary)
    }
}

extension Device {
    /// Makes the device's secrets private again before an app runs:
    /// `Secrets/` and `Keychains/` 0700, `device-secret` 0600, links never
    /// followed. Apps run as an unprivileged user (``ProcessLaunchOptions/user``),
    /// so with these modes they cannot read, change or even reach the
    /// secret or the keychain database, whatever confinement the kernel
    /// offers; this also repairs a device made before those modes were set.
    func protectSecrets() throws {
        do {
            for (directory, mode) in [(layout.secrets, UInt32(0o700)), (layout.keychains, 0o700)] {
                guard let status = try FileSystemPaths.status(atPath: directory.path), status.isDirectory else { continue }
                if status.permissions != mode {
                    let fd = try FileDescriptor.openDirectory(atPath: directory.path, followLinks: false)
                    defer { fd.closeQuietly() }
                    try fd.setPermissions(mode)
                }
            }
            let secrets = try FileDescriptor.openDirectory(atPath: layout.secrets.path, followLinks: false)
            defer { secrets.closeQuietly() }
            try secrets.setPermissions(of: layout.secretFile.lastPathComponent, 0o600)
        } catch {
            throw DeviceError(error, path: layout.secrets.path, "protect the device secrets")
        }
    }
}
