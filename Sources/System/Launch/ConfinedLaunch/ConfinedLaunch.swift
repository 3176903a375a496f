import Container
import FileSystem
import Foundation
import SystemPackage
@_exported import LaunchCore

/// A program to start inside a Landlock confinement: which program, with
/// which arguments and environment, and which paths it may reach.
///
/// ```swift
/// var launch = ConfinedLaunch(executable: program, arguments: ["--verbose"],
///                             environment: ["HOME": home.path],
///                             readOnly: [bundle], readWrite: [documents, caches])
/// launch.standardOutput = .fileHandle(pipe.fileHandleForWriting)
/// let process = try launch.start()
/// let status = try process.wait()
/// ```
///
/// The process is spawned through the `sandbox-confine` trampoline (see
/// ``ConfinementTrampoline``), which applies the rules to itself and execs
/// the program in place, so the pid ``start()`` returns is the program's.
/// Where the kernel has no Landlock, ``mode`` ``ConfinementMode/automatic``
/// warns on standard error and runs the program unconfined;
/// ``LaunchedProcess/confinement`` says which happened.
public struct ConfinedLaunch: Sendable {
    /// The program.
    public var executable: URL
    /// The arguments after argv[0].
    public var arguments: [String]
    /// The program's whole environment (nothing is inherited).
    public var environment: [String: String]
    /// Every path the program may reach; anything not beneath one of these is
    /// unreachable.
    public var rules: [PathRule]
    /// The directory the program starts in (the trampoline's when nil).
    public var workingDirectory: URL?
    /// Whether confinement is optional, required or off.
    public var mode: ConfinementMode = .automatic
    /// The unprivileged user the program runs as when the launcher is root
    /// (``AppUser/mobile``, 501:501, by default; uid or gid 0 is refused).
    /// There is no way to run it as root: Landlock does not govern `chmod`,
    /// `chown`, `utimes` or `setxattr`. Directories with ``LandlockAccess/readWrite``
    /// rights are handed to this user before the start (their trees
    /// `chown`ed, links never followed) so it can write there. Not root,
    /// the launcher's user is kept (it cannot be changed, and has no
    /// privilege to drop).
    public var user: AppUser = .mobile
    /// Whether the directories the program's libraries come from are
    /// allowed (with the system paths).
    var includesLibraries: Bool
    /// Directories beneath which no library directory is allowed, whatever
    /// the program's run path says (``ConfinedLaunch/app(executable:bundle:container:groups:arguments:environment:)``
    /// fences off every app's bundle and data container this way; its own
    /// have their rules).
    public var libraryExclusions: [String] = []
    /// Where the program's standard streams go.
    public var standardInput: LaunchIO = .inherit
    /// Where the program's standard output goes.
    public var standardOutput: LaunchIO = .inherit
    /// Where the program's standard error goes.
    public var standardError: LaunchIO = .inherit
    /// The trampoline program; found by ``TrampolineLocator`` when nil.
    public var trampoline: URL?
    /// Whether an unconfined start prints ``Confinement/warning(_:)`` on this process's
    /// standard error (the text is in ``Confinement/warning`` either way).
    public var printsWarnings = true

    /// Describes a launch: `readOnly` paths may be read and executed,
    /// `readWrite` paths read and written (but not executed), and, with
    /// `includeSystem`, the ``SystemPaths`` a program needs to start are
    /// readable too, and so are the directories its libraries load from
    /// (``SystemPaths/libraryRules(for:libraryPath:)``, found from the
    /// program's own ELF file when it starts).
    public init(executable: URL, arguments: [String] = [], environment: [String: String] = [:],
                readOnly: [URL] = [], readWrite: [URL] = [], includeSystem: Bool = true) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.includesLibraries = includeSystem
        self.rules = (includeSystem ? SystemPaths.rules : [])
            + readOnly.map { PathRule($0, .readExecute) } + readWrite.map { PathRule($0, .readWrite) }
    }

    /// Starts the program; returns once it runs (or has failed to).
    ///
    /// - Throws: ``LaunchError``: the trampoline or program is missing, the
    ///   kernel refused the rules, ``ConfinementMode/required`` on a kernel
    ///   without Landlock, or exec failed inside the confinement.
    public func start() throws -> LaunchedProcess {
        // A program file still open for writing somewhere cannot be executed
        // (ETXTBSY). That happens by accident right after the file was
        // written: another thread's child, forked while the writer's
        // descriptor was open, holds a copy until it execs. It passes within
        // milliseconds, so the launch is retried a few times.
        var attempt = 0
        while true {
            do {
                return try startOnce()
            } catch let error as LaunchError
                where error.code == .execFailed && error.errno == ProcessControl.textFileBusy && attempt < 20 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.01 * Double(attempt))
            }
        }
    }

    private func startOnce() throws -> LaunchedProcess {
        let request = try trampolineRequest()
        if ProcessControl.isPrivileged { try handOverDataDirectories() }
        let trampolineURL = try trampoline ?? TrampolineLocator.locate()
        var descriptors: [(child: Int32, parent: Int32)] = []
        // Open until the spawn has duplicated it into the child.
        var null: FileDescriptor?
        defer { null?.closeQuietly() }
        for (number, io) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch io {
            case .inherit: continue
            case .nullDevice:
                if null == nil {
                    do { null = try FileDescriptor.open(atPath: "/dev/null", .readWrite) } catch {
                        throw LaunchError(.spawnFailed, path: "/dev/null", "cannot open the null device")
                    }
                }
                if let null { descriptors.append((number, null.rawValue)) }
            case .descriptor(let fd): descriptors.append((number, fd))
            }
        }
        let status: (read: Int32, write: Int32)
        do { status = try ProcessControl.makePipe() } catch {
            throw LaunchError(.spawnFailed, error, path: trampolineURL.path, "make the status pipe")
        }
        descriptors.append((ConfinementTrampoline.statusDescriptor, status.write))
        let pid: Int32
        do {
            defer { ProcessControl.closeDescriptor(status.write) }
            pid = try ProcessControl.spawn(trampolineURL.path, arguments: [trampolineURL.path] + request.commandLine,
                                           environment: environment.map { "\($0.key)=\($0.value)" },
                                           descriptors: descriptors)
        } catch {
            ProcessControl.closeDescriptor(status.read)
            throw LaunchError(.spawnFailed, error, path: trampolineURL.path, "start the trampoline")
        }
        let answer = ProcessControl.readToEnd(status.read)
        ProcessControl.closeDescriptor(status.read)
        return try started(pid, answer: answer)
    }

    private func trampolineRequest() throws -> TrampolineRequest {
        let program = executable.standardizedFileURL.path
        guard FileSystemPaths.isExecutable(atPath: program) else {
            throw LaunchError(.executableNotFound, path: program, "no executable program")
        }
        let words = [program] + arguments + rules.map(\.path) + [workingDirectory?.path ?? ""]
        if words.contains(where: { $0.utf8.contains(0) }) {
            throw LaunchError(.invalidRequest, "an argument or path holds a NUL byte")
        }
        var request = TrampolineRequest(executable: program, arguments: [program] + arguments)
        request.statusDescriptor = ConfinementTrampoline.statusDescriptor
        request.mode = mode
        request.user = user
        request.rules = rules
        if includesLibraries {
            request.rules += SystemPaths.libraryRules(for: program, libraryPath: environment["LD_LIBRARY_PATH"],
                                                     excluding: libraryExclusions)
        }
        request.workingDirectory = workingDirectory?.standardizedFileURL.path
        return request
    }

    /// Turns the trampoline's answer into a running process or an error.
    private func started(_ pid: Int32, answer: [UInt8]) throws -> LaunchedProcess {
        let process = LaunchedProcess(pid: pid, confinement: Confinement(confined: false, abi: 0))
        switch TrampolineStatus(reading: answer) {
        case .confined(let abi):
            let limitation = ConfinedLaunch.limitations(abi: abi)
            if printsWarnings, let limitation { try? FileDescriptor.standardError.writeFully(Array((limitation + "\n").utf8)) }
            process.confinement = Confinement(confined: true, abi: abi, warning: limitation)
            return process
        case .unconfined(let abi, let reason):
            let warning = Confinement.warning(reason)
            if printsWarnings { try? FileDescriptor.standardError.writeFully(Array((warning + "\n").utf8)) }
            process.confinement = Confinement(confined: false, abi: abi, warning: warning)
            return process
        case .failed(let error):
            _ = try? process.wait()
            throw error
        case nil:
            let ended = (try? process.wait()).map { " (\($0))" } ?? ""
            throw LaunchError(.protocolError, path: String(pid), "the trampoline ended without a status\(ended)")
        }
    }

    /// What an old ABI cannot enforce, as a warning; nil from ABI 3 on.
    static func limitations(abi: Int) -> String? {
        switch abi {
        case 1: return "warning: Landlock ABI 1 cannot stop truncating files outside the container, and refuses moving files between directories"
        case 2: return "warning: Landlock ABI 2 cannot stop truncating files outside the container"
        default: return nil
        }
    }
}

/// Where one of a launched program's standard streams goes.
public enum LaunchIO: Sendable, Hashable {
    /// The launcher's own stream.
    case inherit
    /// `/dev/null`.
    case nullDevice
    /// An open descriptor of the launcher (which keeps ownership of it:
    /// close your copy of a pipe's write end after ``ConfinedLaunch/start()``).
    case descriptor(Int32)

    /// A file handle's descriptor.
    public static func fileHandle(_ handle: FileHandle) -> LaunchIO { .descriptor(handle.fileDescriptor) }
}

extension ConfinedLaunch {
    /// The directories of a data container an app may write: the rest of
    /// the container (its root) is read-only, as on iOS.
    /// (The top-level directories whose row in Container's rules table is
    /// writable: `Documents`, `Library` and `tmp`.)
    public static let writableContainerDirectories = ContainerDirectory.layout(of: .app)
        .filter { !$0.relativePath.contains("/") && StorageRules.rules(for: $0, in: .app).writable }
        .map(\.relativePath)

    /// Describes the launch of an app: `executable` inside `bundle` runs with
    /// ``ContainerEnvironment`` for `container`, starts in the container, and
    /// may reach only the system (read-only), its bundle (read and execute),
    /// its container's root (read), `Documents`, `Library` and `tmp`
    /// (read-write, never executed), and `groups` (shared app-group
    /// containers, read-write). The data directories are opened beneath the
    /// container without following links (``PathRule/beneath``), and the
    /// program runs as ``ConfinedLaunch/user``, never as root.
    public static func app(executable: URL, bundle: URL, container: URL, groups: [URL] = [],
                           arguments: [String] = [], environment extra: [String: String] = [:]) -> ConfinedLaunch {
        let containerPath = container.standardizedFileURL.path
        let bundlePath = bundle.standardizedFileURL.path
        var environment = ContainerEnvironment(container: containerPath, bundle: bundlePath,
                                               inheriting: ProcessInfo.processInfo.environment).variables
        environment.merge(extra) { _, new in new }
        var launch = ConfinedLaunch(executable: executable, arguments: arguments, environment: environment)
        launch.rules.append(PathRule(bundlePath, .readExecute))
        launch.rules.append(PathRule(containerPath, .read))
        // Opened beneath the container with no link followed: a `Documents`
        // that a restore or anyone else made a link must not grant its target.
        for name in writableContainerDirectories {
            launch.rules.append(PathRule(containerPath + "/" + name, .readWrite, beneath: containerPath))
        }
        launch.rules += groups.map { PathRule($0, .readWrite) }
        // Every app's bundle and container sits beside this one's: a run
        // path must not open them (the app's own are allowed by the rules above).
        let bundles = bundle.standardizedFileURL.deletingLastPathComponent().deletingLastPathComponent().path
        launch.libraryExclusions = [bundles, container.standardizedFileURL.deletingLastPathComponent().path]
            + groups.map { $0.standardizedFileURL.deletingLastPathComponent().path }
        launch.libraryExclusions = launch.libraryExclusions.reduce(into: []) { unique, path in
            if path != "/" && !path.isEmpty && !unique.contains(path) { unique.append(path) }
        }
        launch.workingDirectory = container
        return launch
    }
}

extension ConfinedLaunch {
    /// Hands every directory the program may write (a rule with all of
    /// ``LandlockAccess/readWrite``) to ``user``: the program runs as that
    /// user, so it must own its data to write it. A rule with a
    /// ``PathRule/beneath`` directory is opened beneath it with no link
    /// followed, so a link planted in a container hands over nothing; a
    /// missing directory is left to the trampoline to report.
    func handOverDataDirectories() throws {
        guard user.uid != 0, user.gid != 0 else {
            throw LaunchError(.privilegeDropFailed, path: user.description, "an app never runs as root (uid or gid 0)")
        }
        for rule in rules where rule.access.isSuperset(of: .readWrite) {
            do {
                let directory = try open(rule)
                defer { directory.closeQuietly() }
                try directory.setOwnerOfTree(user: user.uid, group: user.gid)
            } catch {
                if error.isNotFound { continue }  // the trampoline reports it (or skips an optional rule)
                if rule.beneath == nil && error.isNotDirectory { continue }  // a file rule: nothing to hand over
                if error.isLoop || error.isEscape || error.isNotDirectory {
                    throw LaunchError(.linkRefused, path: rule.path,
                                      "a data directory is a symbolic link (never followed)")
                }
                throw LaunchError(.ownershipFailed, path: rule.path,
                                  "cannot hand the directory to user \(user)").caused(by: error)
            }
        }
    }

    private func open(_ rule: PathRule) throws(FileSystemError) -> FileDescriptor {
        guard let anchor = rule.beneath, let relative = rule.pathBeneath else {
            return try FileDescriptor.openDirectory(atPath: rule.path, followLinks: rule.beneath == nil)
        }
        let container = try FileDescriptor.openDirectory(atPath: anchor)
        defer { container.closeQuietly() }
        if relative.isEmpty { return try container.openBeneath("", .readOnly, options: .directory) }
        return try container.openBeneath(relative, .readOnly, options: [.directory, .noFollow], followFinal: false)
    }
}
