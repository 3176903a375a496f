/// What the launcher asks the `sandbox-confine` trampoline to do, as its
/// command line:
///
/// ```
/// sandbox-confine [--status-fd N] [--mode automatic|required|disabled]
///                 [--user <uid>:<gid>] [--rule <rights>[?][+<n>]:<path>]… [--chdir <dir>]
///                 -- <program> <argv0> [args…]
/// ```
///
/// `<rights>` is a ``LandlockAccess`` bit mask in decimal; `?` marks a rule
/// whose path may be missing; `+<n>` says the first `n` bytes of the path
/// are its ``PathRule/beneath`` directory. `--user` is the ``AppUser`` a
/// trampoline started as root becomes (``AppUser/mobile`` when absent). The environment is the trampoline's own,
/// passed on unchanged to the program.
package struct TrampolineRequest: Equatable {
    package var statusDescriptor: Int32?
    package var mode: ConfinementMode = .automatic
    package var user: AppUser = .mobile
    package var rules: [PathRule] = []
    package var workingDirectory: String?
    package var executable: String
    /// The program's argv, argv[0] included.
    package var arguments: [String]

    /// The options and operands, without the trampoline's own argv[0].
    package var commandLine: [String] {
        var line: [String] = []
        if let statusDescriptor { line += ["--status-fd", String(statusDescriptor)] }
        line += ["--mode", mode.rawValue, "--user", user.description]
        for rule in rules { line += ["--rule", rule.description] }
        if let workingDirectory { line += ["--chdir", workingDirectory] }
        return line + ["--", executable] + arguments
    }

    /// Parses ``commandLine``.
    package init(commandLine: some Collection<String>) throws {
        var rest = commandLine[...]
        var executable: String?
        var programArguments: [String] = []
        func value(_ option: String) throws -> String {
            guard let value = rest.popFirst() else {
                throw LaunchError(.invalidRequest, "option \(option) needs a value")
            }
            return value
        }
        while let word = rest.popFirst() {
            switch word {
            case "--status-fd":
                let text = try value(word)
                guard let fd = Int32(text), fd >= 0 else { throw LaunchError(.invalidRequest, "bad descriptor \(text)") }
                statusDescriptor = fd
            case "--mode":
                let text = try value(word)
                guard let mode = ConfinementMode(rawValue: text) else { throw LaunchError(.invalidRequest, "bad mode \(text)") }
                self.mode = mode
            case "--user":
                let text = try value(word)
                guard let user = AppUser(encoded: text) else { throw LaunchError(.invalidRequest, "bad user \(text)") }
                self.user = user
            case "--rule":
                let text = try value(word)
                guard let rule = PathRule(encoded: text) else { throw LaunchError(.invalidRequest, "bad rule \(text)") }
                rules.append(rule)
            case "--chdir":
                workingDirectory = try value(word)
            case "--":
                executable = rest.popFirst()
                programArguments = Array(rest)
                rest = rest[rest.endIndex...]
            default:
                throw LaunchError(.invalidRequest, "unknown option \(word)")
            }
        }
        guard let executable, !programArguments.isEmpty else {
            throw LaunchError(.invalidRequest, "usage: sandbox-confine [options] -- <program> <argv0> [args…]")
        }
        self.executable = executable
        self.arguments = programArguments
    }

    /// A request to run `executable` with argv `arguments`, unconfigured.
    package init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }
}
