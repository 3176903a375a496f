/// The `sandbox-confine` program (what `ConfinedLaunch` spawns): confines itself, drops every
/// privilege (``PrivilegeDrop``), then execs the program it was asked to run, which inherits both.
///
/// Landlock restricts the calling thread and what it execs, so confinement
/// has to happen in the child between fork and exec. Swift code cannot run
/// safely in a forked child of a multi-threaded process, so the launcher
/// spawns this small program instead, and this program does the work on
/// its own, single-threaded, before exec'ing (see ``TrampolineRequest`` for
/// its command line and ``TrampolineStatus`` for what it reports). It
/// imports no Foundation, so it starts in a few milliseconds.
public enum ConfinementTrampoline {
    /// The descriptor number the launcher gives the status pipe.
    public static let statusDescriptor: Int32 = 3

    /// Runs the trampoline with `arguments` (argv, argv[0] included). Returns
    /// only by exec'ing the program or exiting: 64 for a malformed request,
    /// 126 when confinement failed, 127 when exec failed.
    public static func main(_ arguments: [String]) -> Never {
        // Nothing the launcher had open may reach the program: Landlock
        // checks paths when files are opened, not descriptors already open.
        Platform.closeOnExec(from: statusDescriptor)
        let request: TrampolineRequest
        do {
            request = try TrampolineRequest(commandLine: arguments.dropFirst())
        } catch {
            fail(error, status: nil, exit: 64)
        }
        let status: TrampolineStatus
        do {
            // Rules are opened while still privileged (the device may live
            // under a directory only root can search); then root is left
            // before anything of the app's runs, the working directory
            // included, so the app reaches only what its user may.
            status = try LandlockRuleset.confineSelf(to: request.rules, mode: request.mode)
            _ = try PrivilegeDrop.drop(to: request.user)
            if let directory = request.workingDirectory {
                do { try Platform.changeDirectory(directory) } catch let failure as SystemFailure {
                    let action = failure.errno == Platform.accessDenied
                        ? "enter the working directory as user \(request.user) (every directory above it must be searchable by that user)"
                        : "enter the working directory"
                    throw LaunchError(.pathNotFound, failure, path: directory, action)
                }
            }
            // Last, once the trampoline itself needs no `chdir` or `O_PATH`:
            // the probes Landlock does not see (MetadataProbeFilter).
            if case .confined = status { _ = try MetadataProbeFilter.install() }
        } catch {
            fail(error, status: request.statusDescriptor, exit: 126)
        }
        report(status, to: request.statusDescriptor)
        let failure = Platform.execute(request.executable, arguments: request.arguments)
        let error = LaunchError(.execFailed, failure, path: request.executable, "execute the program")
        fail(error, status: request.statusDescriptor, exit: 127)
    }

    private static func report(_ status: TrampolineStatus, to descriptor: Int32?) {
        if let descriptor {
            Platform.writeAll(Array(status.line.utf8), to: descriptor)
        } else if case .unconfined(_, let reason) = status {
            // Run by hand: there is no launcher to warn, so warn here.
            Platform.writeAll(Array((Confinement.warning(reason) + "\n").utf8), to: 2)
        }
    }

    private static func fail(_ error: any Error, status descriptor: Int32?, exit code: Int32) -> Never {
        let launchError = error as? LaunchError ?? LaunchError(.invalidRequest, "\(error)")
        if let descriptor {
            report(.failed(launchError), to: descriptor)
        } else {
            Platform.writeAll(Array("sandbox-confine: \(launchError)\n".utf8), to: 2)
        }
        Platform.exitImmediately(code)
    }
}
