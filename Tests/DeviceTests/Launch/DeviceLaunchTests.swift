@testable import Device
import Foundation
import Launch
import Testing

/// `device.launch` and `device.terminate`: an installed app's executable as
/// a confined process, with its run recorded.
@Suite struct DeviceLaunchTests {
    /// Installs an app whose executable is `script` (a shell script).
    private func install(_ fixture: DeviceFixture, script: String, identifier: String = "com.example.notes") throws -> InstalledApp {
        let bundle = try fixture.bundle(identifier: identifier)
        try Data("#!/bin/sh\n\(script)\n".utf8).write(to: bundle.appendingPathComponent("Notes"))
        return try fixture.device.install(bundleAt: bundle)
    }

    /// Waits until the app has created `Documents/ready` (its signal
    /// handler is in place), so a signal cannot arrive before it.
    private func waitUntilReady(_ app: InstalledApp) throws {
        let ready = app.dataContainerURL.appendingPathComponent("Documents/ready").path
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: ready) {
            try #require(Date() < deadline, "the app never became ready")
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    private var quiet: ProcessLaunchOptions {
        var options = ProcessLaunchOptions()
        options.standardOutput = .nullDevice
        options.printsWarnings = false
        return options
    }

    @Test("a launched app runs in its container's environment and --wait returns its status")
    func launchAndWait() throws {
        let fixture = try DeviceFixture("launch")
        let app = try install(fixture, script: """
            cd "$HOME/Documents" && printf '%s\\n' "$HOME" "$TMPDIR" "$XDG_CACHE_HOME" "$SANDBOX_CONTAINER" "$SANDBOX_BUNDLE" "$1" > env.txt
            exit 7
            """)
        let run = try fixture.device.launch(app.bundleID, arguments: ["first"], wait: true, options: quiet)
        #expect(run.exitStatus == .exited(7))
        #expect(run.confined == Landlock.isAvailable)
        #expect(try !fixture.device.isRunning(app.bundleID))
        #expect(try fixture.device.runRecord(app.bundleID) == nil)
        let home = app.dataContainerURL.standardizedFileURL.path
        let lines = try String(contentsOf: app.dataContainerURL.appendingPathComponent("Documents/env.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines == [home, home + "/tmp/", home + "/Library/Caches", home,
                          app.bundleContainer.standardizedFileURL.path, "first"])
    }

    @Test("a running app is recorded, spared by purge, and terminate delivers SIGTERM")
    func terminate() throws {
        let fixture = try DeviceFixture("launch")
        let app = try install(fixture, script: """
            trap 'echo saved > "$HOME/Documents/terminated"; exit 0' TERM
            : > "$HOME/Documents/ready"
            while :; do sleep 0.05; done
            """)
        let cache = app.dataContainerURL.appendingPathComponent("Library/Caches/blob")
        try Data(count: 4096).write(to: cache)
        let run = try fixture.device.launch(app.bundleID, options: quiet)
        try waitUntilReady(app)
        #expect(run.exitStatus == nil)
        #expect(try fixture.device.isRunning(app.bundleID))
        #expect(try fixture.device.runRecord(app.bundleID)?.pid == run.pid)
        #expect(try fixture.device.runRecord(app.bundleID)?.kind == "process")
        _ = try fixture.device.purge()
        #expect(FileManager.default.fileExists(atPath: cache.path), "purge emptied a running app's Caches")
        let error = #expect(throws: DeviceError.self) { try fixture.device.launch(app.bundleID, options: quiet) }
        #expect(error?.code == .appRunning)

        #expect(try fixture.device.terminate(app.bundleID) == .terminated)
        #expect(try run.process.wait() == .exited(0))
        #expect(FileManager.default.fileExists(atPath: app.dataContainerURL.appendingPathComponent("Documents/terminated").path))
        #expect(try !fixture.device.isRunning(app.bundleID))
        #expect(try fixture.device.terminate(app.bundleID) == .notRunning)
        _ = try fixture.device.purge()
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }

    @Test("an app that ignores SIGTERM is killed after the timeout")
    func killAfterTimeout() throws {
        let fixture = try DeviceFixture("launch")
        let app = try install(fixture, script: "trap '' TERM\n: > \"$HOME/Documents/ready\"\nwhile :; do sleep 0.05; done")
        let run = try fixture.device.launch(app.bundleID, options: quiet)
        try waitUntilReady(app)
        #expect(try fixture.device.terminate(app.bundleID, timeout: 0.3) == .killed)
        #expect(try run.process.wait() == .signaled(9))
        #expect(try !fixture.device.isRunning(app.bundleID))
    }

    @Test("a bundle modified after install is refused")
    func modifiedBundle() throws {
        let fixture = try DeviceFixture("launch")
        let app = try install(fixture, script: "exit 0")
        try Data("#!/bin/sh\necho tampered\n".utf8).write(to: app.bundleContainer.appendingPathComponent("Notes"))
        let error = #expect(throws: DeviceError.self) { try fixture.device.launch(app.bundleID, options: quiet) }
        #expect(error?.code == .sealMismatch)
        #expect(try !fixture.device.isRunning(app.bundleID))
    }

    @Test("an app that is not installed is not launched")
    func notInstalled() throws {
        let fixture = try DeviceFixture("launch")
        let error = #expect(throws: DeviceError.self) { try fixture.device.launch("com.example.none", options: quiet) }
        #expect(error?.code == .notInstalled)
    }

    @Test("a launched app cannot write outside its container or into its bundle",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func confined() throws {
        let fixture = try DeviceFixture("launch")
        let other = try install(fixture, script: "exit 0", identifier: "com.example.other")
        let app = try install(fixture, script: """
            r="$HOME/Documents/report"
            (echo x > "$HOME/../escape") 2>/dev/null && echo home-parent >> "$r"
            (echo x > "$SANDBOX_BUNDLE/escape") 2>/dev/null && echo bundle >> "$r"
            (echo x > "$HOME/escape") 2>/dev/null && echo container-root >> "$r"
            (echo x > "\(other.dataContainerURL.path)/Documents/escape") 2>/dev/null && echo other-app >> "$r"
            (echo x > "\(fixture.device.root.path)/escape") 2>/dev/null && echo device-root >> "$r"
            echo done >> "$r"
            """)
        var options = quiet
        options.confinement = .required
        let run = try fixture.device.launch(app.bundleID, wait: true, options: options)
        #expect(run.confined)
        #expect(run.exitStatus == .exited(0))
        let report = try String(contentsOf: app.dataContainerURL.appendingPathComponent("Documents/report"), encoding: .utf8)
        #expect(report == "done\n")
        #expect(try app.bundle.verifySeal() == .valid)
    }
}
