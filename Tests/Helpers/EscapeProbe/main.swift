// A test app: launched inside its sandbox, it tries to reach everything it
// must not (≥ 15 escapes) and everything it must, then prints a JSON report.
//
//   escape-probe --outside <dir> --other <another app's container>
//
// Its container and bundle come from the launch environment
// (SANDBOX_CONTAINER, SANDBOX_BUNDLE), as a real app's would.
import Foundation

struct Report: Codable {
    var pid: Int32
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
log.tryAllowed(targets)
let report = Report(pid: Platform.processID, container: container, bundle: bundle, attempts: log.attempts)
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
let json = (try? encoder.encode(report)) ?? Data("{}".utf8)
FileHandle.standardOutput.write(json + Data("\n".utf8))
