import Foundation
@testable import Launch
@testable import LaunchCore
import Testing

@Suite struct TrampolineProtocolTests {
    @Test("a request survives its command line")
    func requestRoundTrip() throws {
        var request = TrampolineRequest(executable: "/a b/prog", arguments: ["/a b/prog", "--", "x:y", ""])
        request.statusDescriptor = 3
        request.mode = .required
        request.rules = [PathRule("/usr", .readExecute, optional: true), PathRule("/data: odd", .readWrite)]
        request.workingDirectory = "/data: odd"
        let parsed = try TrampolineRequest(commandLine: request.commandLine)
        #expect(parsed == request)
    }

    @Test("a rule beneath a container and the app user survive the command line")
    func beneathAndUser() throws {
        var request = TrampolineRequest(executable: "/p", arguments: ["p"])
        request.user = AppUser(uid: 1234, gid: 99)
        request.rules = [PathRule("/c: x/Documents", .readWrite, beneath: "/c: x"), PathRule("/c: x", .read, beneath: "/c: x")]
        let parsed = try TrampolineRequest(commandLine: request.commandLine)
        #expect(parsed == request)
        #expect(parsed.rules.map(\.pathBeneath) == ["Documents", ""])
        #expect(TrampolineRequest(executable: "/p", arguments: ["p"]).user == .mobile)
        #expect(PathRule(encoded: "6+99:/c") == nil)
        #expect(PathRule(encoded: "6+2:/cd/x") == nil, "/c is not a directory of /cd/x")
        #expect(throws: LaunchError.self) { try TrampolineRequest(commandLine: ["--user", "x", "--", "/p", "p"]) }
    }

    @Test("malformed requests are refused", arguments: [
        [], ["--mode", "sometimes", "--", "/p", "p"], ["--rule", "x:/usr", "--", "/p", "p"],
        ["--status-fd"], ["--bogus"], ["--", "/p"],
    ])
    func malformed(_ line: [String]) {
        #expect(throws: LaunchError.self) { try TrampolineRequest(commandLine: line) }
    }

    @Test("status lines survive the pipe")
    func statusRoundTrip() {
        let statuses: [TrampolineStatus] = [
            .confined(abi: 7),
            .unconfined(abi: 0, reason: "the kernel was built without Landlock"),
            .failed(LaunchError(.execFailed, path: "/x y/p", errno: 13, "cannot execute the program: Permission denied")),
            .failed(LaunchError(.invalidRequest, "bad\nrule")),
        ]
        for status in statuses {
            let decoded = TrampolineStatus(reading: Array(status.line.utf8))
            if case .failed(let error) = status, error.message.contains("\n") {
                #expect(decoded == .failed(LaunchError(.invalidRequest, "bad rule")))
            } else {
                #expect(decoded == status)
            }
        }
        #expect(TrampolineStatus(reading: []) == nil)
        #expect(TrampolineStatus(reading: Array("garbage\n".utf8)) == nil)
        // An exec failure follows the status line: the last line wins.
        let both = TrampolineStatus.confined(abi: 7).line + TrampolineStatus.failed(LaunchError(.execFailed, "x")).line
        #expect(TrampolineStatus(reading: Array(both.utf8)) == .failed(LaunchError(.execFailed, "x")))
    }
}
