/// What the trampoline tells the launcher over its status pipe, one line,
/// just before it execs the program (or instead of exec'ing it):
///
/// ```
/// confined <abi>
/// unconfined <abi> <reason>
/// error <code> <errno> <message>
/// ```
///
/// The pipe closes on exec, so end-of-file after a `confined`/`unconfined`
/// line means the program is running; an `error` line after it means exec
/// failed.
package enum TrampolineStatus: Equatable {
    /// Confined with this ABI; the program is next.
    case confined(abi: Int)
    /// Not confined, and why; the program is next.
    case unconfined(abi: Int, reason: String)
    /// The launch failed; the trampoline exits.
    case failed(LaunchError)

    package var line: String {
        switch self {
        case .confined(let abi): return "confined \(abi)\n"
        case .unconfined(let abi, let reason): return "unconfined \(abi) \(oneLine(reason))\n"
        case .failed(let error):
            return "error \(error.code.rawValue) \(error.errno ?? 0) \(oneLine(error.path))\t\(oneLine(error.message))\n"
        }
    }

    /// Reads the last line of what the pipe carried; nil for nothing at all
    /// (the trampoline died before it said anything).
    package init?(reading bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").last else { return nil }
        let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        switch (words.first, words.count) {
        case ("confined", 2):
            guard let abi = Int(words[1]) else { return nil }
            self = .confined(abi: abi)
        case ("unconfined", 3...):
            guard let abi = Int(words[1]) else { return nil }
            self = .unconfined(abi: abi, reason: words.dropFirst(2).joined(separator: " "))
        case ("error", 4):
            guard let code = LaunchError.Code(rawValue: words[1]), let number = Int32(words[2]) else { return nil }
            let parts = words[3].split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            self = .failed(LaunchError(code, path: parts[0], errno: number == 0 ? nil : number,
                                       parts.count > 1 ? parts[1] : ""))
        default:
            return nil
        }
    }

    private func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\t" ? " " : $0 })
    }
}
