// A test app: launched inside its sandbox, it tries to reach everything it
// must not (≥ 15 escapes) and everything it must, then prints a JSON report.
//
//   escape-probe --outside <dir> --other <another app's container> [--protected <path>]…
//
// Each `--protected` path gets metadata attacks (chmod, chown, utimes,
// setxattr). The report also gives the probe's user and group ids and its
// capability sets (`Cap*` of /proc/self/status), so a test can check it
// runs unprivileged.
// Its container and bundle come from the launch environment
// (SANDBOX_CONTAINER, SANDBOX_BUNDLE), as a real app's would.
import Foundation

struct Report: Codable {
    var pid: Int32
    var uid: UInt32
    var euid: UInt32
    var gid: UInt32
    var egid: UInt32
    /// `CapInh`, `CapPrm`, `CapEff`, `CapBnd`, `CapAmb`, `NoNewPrivs`.
    var privileges: [String: String]
    var container: String
    var bundle: String
    var attempts: [Attempt]
}

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let environment = ProcessInfo.processInfo.environment
guard let container = environment["SANDBOX_CONTAINER"], let bundle = environment["SANDBOX_BUNDLE"],
      let outside = option("--outside"), let other = option("--other") else {
    FileHandle.standardError.write(Data("usage: escape-probe --outside <dir> --other <container> (with SANDBOX_CONTAINER and SANDBOX_BUNDLE set)\n".utf8))
    exit(64)
}

let targets = Targets(container: container, bundle: bundle, outside: outside, other: other)
var log = AttemptLog()
log.tryEscapes(targets)
var protected: [String] = []
for (index, word) in arguments.enumerated() where word == "--protected" && index + 1 < arguments.count {
    protected.append(arguments[index + 1])
}
log.tryMetadataChanges(protected)
log.tryAllowed(targets)
let ids = Platform.ids
let report = Report(pid: Platform.processID, uid: ids.uid, euid: ids.euid, gid: ids.gid, egid: ids.egid,
                    privileges: Platform.privilegeStatus(), container: container, bundle: bundle, attempts: log.attempts)
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
let json = (try? encoder.encode(report)) ?? Data("{}".utf8)
FileHandle.standardOutput.write(json + Data("\n".utf8))
