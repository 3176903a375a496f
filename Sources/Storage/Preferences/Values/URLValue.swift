/// File paths as `UserDefaults` stores them: abbreviated with `~` when they
/// are inside the home directory, so a container that moves keeps working.
enum URLValue {
    static func abbreviatingHome(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty else { return path }
        let trimmedHome = home.hasSuffix("/") ? String(home.dropLast()) : home
        if path == trimmedHome { return "~" }
        if path.hasPrefix(trimmedHome + "/") { return "~" + path.dropFirst(trimmedHome.count) }
        return path
    }

    static func expandingTilde(_ path: String, home: String?) -> String {
        guard let home, path == "~" || path.hasPrefix("~/") else { return path }
        let trimmedHome = home.hasSuffix("/") ? String(home.dropLast()) : home
        return trimmedHome + path.dropFirst()
    }
}
