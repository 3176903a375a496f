import Foundation
import TestSupport
import Testing

/// Debian's `chromium`, headless, taking a screenshot of a page.
enum HeadlessChromium {
    struct TimedOut: Error, CustomStringConvertible {
        var seconds: Double
        var description: String { "chromium did not finish its screenshot in \(seconds) s; it was stopped" }
    }

    /// Renders `page` at 1280 × 2000 into `png`. Chromium gets a profile
    /// of its own in `scratch` (so no other run's profile is locked) and
    /// `timeout` seconds; past that it is stopped by its process id.
    static func screenshot(of page: URL, to png: URL, scratch: TemporaryDirectory, timeout: Double = 90) throws {
        let chromium = try #require(SystemTool.locate("chromium"), "chromium is not installed (Debian: chromium)")
        let process = Process()
        process.executableURL = chromium
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=" + scratch.path("chromium-profile"), "--window-size=1280,2000",
            "--screenshot=" + png.path, page.absoluteString,
        ]
        // Its chatter (D-Bus is absent in containers) goes to a file, never
        // a pipe that could fill and stall it.
        let log = try scratch.write(Data(), to: "chromium.log")
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            let grace = Date().addingTimeInterval(5)
            while process.isRunning && Date() < grace { Thread.sleep(forTimeInterval: 0.1) }
            if process.isRunning { _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/kill"), ["-KILL", "\(process.processIdentifier)"]) }
            process.waitForExit()
            throw TimedOut(seconds: timeout)
        }
        let output = String(decoding: (try? scratch.read("chromium.log")) ?? Data(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "chromium exited with \(process.terminationStatus): \(output.suffix(2000))")
    }
}
