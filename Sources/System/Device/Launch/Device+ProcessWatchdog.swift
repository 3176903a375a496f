import Container
import FileSystem
import Foundation
import Launch

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
