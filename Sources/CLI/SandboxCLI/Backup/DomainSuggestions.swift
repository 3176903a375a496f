/// The domains closest to a name that is not in a backup, for an error
/// message that stays one short line however many domains the backup has.
enum DomainSuggestions {
    /// Up to `limit` of `domains` nearest to `name` (or to `AppDomain-<name>`,
    /// as a bundle ID names its app's domain): those that start with or
    /// contain it first, then by edit distance, then by name.
    static func closest(to name: String, in domains: [String], limit: Int = 5) -> [String] {
        let wanted = [Array(name.utf8), Array(("AppDomain-" + name).utf8)]
        let ranked = domains.map { domain -> (String, Int) in
            let bytes = Array(domain.utf8)
            let contains = domain.hasPrefix(name) || domain.hasPrefix("AppDomain-" + name) || (!name.isEmpty && domain.contains(name))
            let distance = wanted.map { editDistance($0, bytes) }.min() ?? Int.max
            return (domain, contains ? -1 : distance)
        }
        return ranked.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(limit).map(\.0)
    }

    /// Levenshtein distance over bytes, in two rows of memory.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
