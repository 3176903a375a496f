import Foundation
import Launch
import TestSupport
import Testing

/// Starting, waiting for and signalling programs, and launch errors.
@Suite struct ConfinedLaunchTests {
    private func shell(_ script: String, mode: ConfinementMode = .automatic) throws -> ConfinedLaunch {
        var launch = ConfinedLaunch(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script])
        let trampoline = try #require(BuiltProgram.trampoline, "sandbox-confine was not built")
        launch.trampoline = trampoline
        launch.mode = mode
        launch.printsWarnings = false
        return launch
    }

    @Test("wait returns the exit status")
    func exitStatus() throws {
        let process = try shell("exit 3").start()
        #expect(try process.wait() == .exited(3))
        #expect(try process.wait() == .exited(3))
        #expect(!process.isRunning)
        #expect(process.confinement.confined == Landlock.isAvailable)
    }

    @Test("terminate delivers SIGTERM")
    func terminate() throws {
        let process = try shell("exec sleep 30").start()
        #expect(process.isRunning)
        #expect(process.identity.isAlive)
        try process.terminate()
        let status = try process.wait()
        #expect(status == .signaled(LibC.terminateSignal))
        #expect(status.shellStatus == 128 + LibC.terminateSignal)
        #expect(!process.identity.isAlive)
        // Signalling a collected process does nothing (its pid may be reused).
        try process.terminate(.kill)
    }

    @Test("the program gets exactly the given environment")
    func environment() throws {
        var launch = try shell("test \"$ONLY\" = yes && test -z \"$HOME_FROM_PARENT\"")
        launch.environment = ["ONLY": "yes"]
        #expect(try launch.start().wait() == .exited(0))
    }

    /// `ProcessControl.spawn` itself, which tests and tools use without the
    /// trampoline: a test runner holds hundreds of descriptors without
    /// close-on-exec, and a child limited to 256 (the deep-tree tests run
    /// `sandbox` under `ulimit -n 256`) started with most of them taken.
    @Test("a spawned program gets none of its parent's descriptors")
    func spawnPassesOnlyTheStreams() throws {
        let held = (0..<40).map { _ in dup(2) }
        defer { held.forEach { _ = close($0) } }
        #expect(held.allSatisfy { $0 >= 0 })
        // `ls` lists its own: the three streams and the listing's directory.
        let listing = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ls /proc/self/fd"])
        let descriptors = listing.output.split(separator: "\n")
        #expect(descriptors.count == 4, "the program had \(descriptors)")
    }

    @Test("a missing program is refused before anything starts")
    func missingExecutable() throws {
        var launch = try shell("true")
        launch.executable = URL(fileURLWithPath: "/nonexistent/program")
        let error = #expect(throws: LaunchError.self) { try launch.start() }
        #expect(error?.code == .executableNotFound)
    }

    @Test("a required rule path that is missing fails the launch",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func missingRulePath() throws {
        var launch = try shell("true")
        launch.rules.append(PathRule("/nonexistent/data", .readWrite))
        let error = #expect(throws: LaunchError.self) { try launch.start() }
        #expect(error?.code == .pathNotFound)
        #expect(error?.path == "/nonexistent/data")
    }

    @Test("a program outside every rule cannot even be executed",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func programOutsideRules() throws {
        let directory = try TemporaryDirectory()
        let program = directory.url.appendingPathComponent("outside.sh")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        var launch = try shell("true", mode: .required)
        launch.executable = program
        launch.arguments = []
        let error = #expect(throws: LaunchError.self) { try launch.start() }
        #expect(error?.code == .execFailed)
        #expect(error?.errno == LibC.permissionDenied)
    }

    @Test("confined, a shell cannot write outside what the rules allow",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func shellConfined() throws {
        let directory = try TemporaryDirectory()
        let allowed = directory.url.appendingPathComponent("allowed")
        try FileManager.default.createDirectory(at: allowed, withIntermediateDirectories: true)
        var launch = try shell("echo in > '\(allowed.path)/ok' && ! (echo out > '\(directory.url.path)/escape') 2>/dev/null",
                               mode: .required)
        launch.rules.append(PathRule(allowed, .readWrite))
        #expect(try launch.start().wait() == .exited(0))
        #expect(FileManager.default.fileExists(atPath: allowed.appendingPathComponent("ok").path))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("escape").path))
    }

    @Test("a descriptor the launcher left open does not reach the program")
    func inheritedDescriptor() throws {
        let directory = try TemporaryDirectory()
        let outside = directory.url.appendingPathComponent("outside.log")
        let fd = LibC.openInheritable(outside.path)
        #expect(fd > 2)
        defer { LibC.closeDescriptor(fd) }
        let process = try shell("(echo leaked >&\(fd)) 2>/dev/null && exit 1; exit 0").start()
        #expect(try process.wait() == .exited(0))
        #expect(try Data(contentsOf: outside).isEmpty)
    }

    @Test("turned off, a launch warns and reports confined == false")
    func disabled() throws {
        let process = try shell("exit 0", mode: .disabled).start()
        #expect(try process.wait() == .exited(0))
        #expect(!process.confinement.confined)
        #expect(process.confinement.abi == 0)
        #expect(process.confinement.warning?.hasPrefix("warning: ") == true)
    }
}
