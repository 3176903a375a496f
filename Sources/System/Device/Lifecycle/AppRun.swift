import Foundation
import Launch
import NetworkConditions
import Preferences
import PropertyList

/// One run of an in-process app: drives its state machine and calls its
/// delegate, as the system does on iOS.
///
/// ```
/// notRunning ─launch→ inactive ⇄ active        (activate / resignActive)
///            inactive ─enterBackground→ background ─suspend→ suspended
///   background, suspended ─enterForeground→ inactive
///   inactive, active, background, suspended ─terminate→ notRunning
/// ```
///
/// Any other transition throws ``DeviceErrorCode/invalidTransition``.
/// While the run is not terminated the app counts as running for purge,
/// update and uninstall (its `run/` record names this process). Entering
/// the background and terminating flush the app's preferences to disk and
/// save the delegate's state for the next launch; a suspended app is
/// terminated without callbacks, as iOS kills it.
public final class AppRun {
    /// The app.
    public let bundleID: String
    /// The device it runs on.
    public let device: Device
    /// The app's delegate (held strongly, as `UIApplication` does).
    public let delegate: any AppDelegate
    /// The current state.
    public private(set) var state: AppState = .notRunning
    /// The context, from launch until terminate.
    public private(set) var context: AppContext?
    /// What the radio conditions meant for the last launch (the
    /// airplane-mode alert, the Wi-Fi timer hold), from launch on.
    public private(set) var network: NetworkLaunchReport?

    init(bundleID: String, device: Device, delegate: any AppDelegate) {
        self.bundleID = bundleID
        self.device = device
        self.delegate = delegate
    }

    /// Launches the app: opens its container, preferences (with the launch
    /// arguments), keychain and saved state, records it as running (and in
    /// the radio conditions: ``network``), and calls
    /// `didFinishLaunchingWithOptions`. The app is then inactive.
    ///
    /// The launch watchdog times `didFinishLaunchingWithOptions`: past the
    /// limit (``LaunchOptions/watchdogLimit``, else the device's, 20 s by
    /// default) the app is killed: it no longer runs, its
    /// ``AppContext/termination`` is set so its long work stops, and the
    /// device's ``Device/lastLaunchReport(_:)`` records the kill with the
    /// reason `watchdog timeout` and the code `0x8badf00d`. The launch code
    /// runs on a thread of its own so that the watchdog can give up on it.
    ///
    /// - Throws: ``DeviceErrorCode/appRunning`` if the app already runs
    ///   (here or in another process); `invalidTransition` unless not
    ///   running; ``DeviceErrorCode/watchdogTimeout`` when the watchdog
    ///   killed the app.
    public func launch(options: LaunchOptions = LaunchOptions()) throws {
        guard state == .notRunning else {
            throw DeviceError(.invalidTransition, bundleID: bundleID, "cannot launch \(bundleID): it is \(state.rawValue)")
        }
        guard try !device.isRunning(bundleID) else {
            throw DeviceError(.appRunning, bundleID: bundleID, "\(bundleID) is already running")
        }
        let app = try device.app(bundleID)
        let container = try app.dataContainer()
        let configuration = Preferences.Configuration(arguments: options.arguments)
        let restoration = StateRestoration(container: container, bundleID: bundleID)
        let context = AppContext(bundleID: bundleID, container: container,
                                 searchPaths: try app.searchPaths(), preferences: try app.preferences(configuration: configuration),
                                 keychain: app.keychainClient(on: device), bundle: app.bundle, stateRestoration: restoration,
                                 app: app, device: device, termination: AppTermination())
        var options = options
        if options.restoredState == nil { options.restoredState = try? restoration.restoredState() }
        self.context = context
        try move(to: .inactive)
        LiveRuns.shared.add(self)
        do { network = try device.recordNetworkLaunch(of: app) } catch {
            end()
            throw error
        }
        let limit = options.watchdogLimit ?? device.launchWatchdogLimit
        let delegate = self.delegate
        let launchOptions = options
        let call = WatchdogCall { _ = try delegate.application(context, didFinishLaunchingWithOptions: launchOptions) }
        let started = Date()
        let ended = call.run(limit: limit)
        var report = LaunchReport(bundleID: bundleID, started: started, duration: Date().timeIntervalSince(started),
                                  limit: limit, outcome: .finished)
        switch ended {
        case .returned:
            try? device.writeLaunchReport(report)
        case .threw(let error):
            end()
            report.outcome = .failed
            try? device.writeLaunchReport(report)
            throw error
        case .timedOut:
            context.termination.terminate(.watchdogTimeout)
            end()
            report.outcome = .killed
            report.reason = .watchdogTimeout
            report.terminationCode = LaunchWatchdog.terminationCode
            try? device.writeLaunchReport(report)
            // The abandoned launch code stops at its next check of the
            // termination; give it a moment so it does not race a relaunch.
            call.waitForEnd(timeout: WatchdogCall.abandonGrace)
            throw DeviceError(.watchdogTimeout, bundleID: bundleID, report.summary)
        }
    }

    /// inactive → active: `applicationDidBecomeActive`.
    public func activate() throws {
        let context = try require([.inactive], "activate")
        try move(to: .active)
        try delegate.applicationDidBecomeActive(context)
    }

    /// active → inactive: `applicationWillResignActive`.
    public func resignActive() throws {
        let context = try require([.active], "resign active")
        try delegate.applicationWillResignActive(context)
        try move(to: .inactive)
    }

    /// inactive → background: `applicationDidEnterBackground`, then the
    /// state is preserved and preferences are flushed to disk.
    public func enterBackground() throws {
        let context = try require([.inactive], "enter the background")
        try move(to: .background)
        try delegate.applicationDidEnterBackground(context)
        try preserve(context)
        try context.preferences.applicationDidEnterBackground()
    }

    /// background or suspended → inactive: `applicationWillEnterForeground`.
    public func enterForeground() throws {
        let context = try require([.background, .suspended], "enter the foreground")
        try delegate.applicationWillEnterForeground(context)
        try move(to: .inactive)
    }

    /// background → suspended (no callback: a suspended app runs no code).
    public func suspend() throws {
        _ = try require([.background], "suspend")
        try move(to: .suspended)
    }

    /// Terminates the app. From inactive, active or background the delegate
    /// gets `applicationWillTerminate`, then the state is preserved and
    /// preferences are flushed; a suspended app gets nothing (it relies on
    /// what it saved on entering the background). The app is then not running.
    public func terminate() throws {
        let context = try require([.inactive, .active, .background, .suspended], "terminate")
        defer { end() }
        guard state != .suspended else { return }
        try delegate.applicationWillTerminate(context)
        try preserve(context)
        try context.preferences.applicationWillTerminate()
    }

    /// Delivers a memory warning (ignored unless the app runs code: not
    /// when suspended or not running).
    public func receiveMemoryWarning() throws {
        guard let context, state != .suspended, state != .notRunning else { return }
        try delegate.applicationDidReceiveMemoryWarning(context)
    }

    /// Delivers a low-disk warning (same rule as memory warnings).
    public func receiveLowDiskWarning(_ space: DiskSpace) throws {
        guard let context, state != .suspended, state != .notRunning else { return }
        try delegate.applicationDidReceiveLowDiskWarning(context, space: space)
    }

    // MARK: The machine

    /// Checks that the transition is allowed from the current state (which
    /// is never `notRunning`: launch checks its own) and returns the context.
    @discardableResult
    private func require(_ states: Set<AppState>, _ action: String) throws -> AppContext {
        guard states.contains(state), let context else {
            throw DeviceError(.invalidTransition, bundleID: bundleID, "cannot \(action) \(bundleID): it is \(state.rawValue)")
        }
        return context
    }

    private func move(to next: AppState) throws {
        try device.writeRunRecord(RunRecord(bundleID: bundleID, pid: ProcessControl.currentProcessID, state: next, kind: "in-process"))
        state = next
    }

    private func preserve(_ context: AppContext) throws {
        if let value = try delegate.applicationStateForPreservation(context) {
            try context.stateRestoration.save(value)
        }
    }

    private func end() {
        state = .notRunning
        context = nil
        device.removeRunRecord(bundleID)
        LiveRuns.shared.remove(self)
    }
}

extension Device {
    /// A run of the installed app `bundleID` in this process, driven by
    /// `delegate`; call ``AppRun/launch(options:)`` to start it.
    public func run(_ bundleID: String, delegate: any AppDelegate) throws -> AppRun {
        _ = try app(bundleID)
        return AppRun(bundleID: bundleID, device: self, delegate: delegate)
    }
}
