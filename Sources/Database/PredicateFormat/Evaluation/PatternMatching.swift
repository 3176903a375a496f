import FileSystem
import Foundation

/// `LIKE` and `MATCHES`, shared by in-memory evaluation and the SQL functions.
enum PatternMatching {
    /// `LIKE`: `*` matches any run of characters, `?` exactly one character,
    /// `\` escapes the next; the whole string must match. Characters are
    /// grapheme clusters of the folded strings.
    static func like(_ text: String, pattern: String, options: ComparisonOptions) -> Bool {
        let subject = Array(StringFolding.fold(text, options))
        let tokens = likeTokens(StringFolding.fold(pattern, options))
        // Iterative wildcard matching with one backtrack point: linear in practice, never recursive.
        var s = 0, p = 0
        var starP = -1, starS = 0
        while s < subject.count {
            if p < tokens.count {
                switch tokens[p] {
                case .any:
                    starP = p
                    starS = s
                    p += 1
                    continue
                case .one:
                    s += 1; p += 1
                    continue
                case .literal(let character) where character == subject[s]:
                    s += 1; p += 1
                    continue
                default: break
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starS += 1
            s = starS
        }
        while p < tokens.count, case .any = tokens[p] { p += 1 }
        return p == tokens.count
    }

    private enum LikeToken { case any, one, literal(Character) }

    private static func likeTokens(_ pattern: String) -> [LikeToken] {
        var tokens: [LikeToken] = []
        var escaped = false
        for character in pattern {
            if escaped {
                tokens.append(.literal(character))
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "*": tokens.append(.any)
            case "?": tokens.append(.one)
            default: tokens.append(.literal(character))
            }
        }
        if escaped { tokens.append(.literal("\\")) }
        return tokens
    }

    /// `MATCHES`: an ICU regular expression that must match the whole string.
    static func matches(_ text: String, pattern: String, options: ComparisonOptions) throws(PredicateEvaluationError) -> Bool {
        let regex = try RegexCache.regex(pattern, caseInsensitive: options.contains(.caseInsensitive))
        let subject = options.contains(.diacriticInsensitive)
            ? StringFolding.fold(text, .diacriticInsensitive) : text
        let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
        guard let match = regex.firstMatch(in: subject, options: [.anchored], range: range) else { return false }
        return match.range == range
    }
}

/// Compiled regular expressions by pattern: a predicate's pattern is compiled
/// once, not once a row.
enum RegexCache {
    // NSRegularExpression is immutable and thread-safe once built.
    private static let entries = Locked<[String: NSRegularExpression]>([:])
    private static let capacity = 64

    static func regex(_ pattern: String, caseInsensitive: Bool) throws(PredicateEvaluationError) -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = entries.withLock({ $0[key] }) { return cached }
        // The whole string must match: wrap so alternation cannot escape the anchors.
        let wrapped = "(?:" + pattern + ")\\z"
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: wrapped, options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw PredicateEvaluationError(.invalidRegularExpression, text: pattern, detail: "\(error)")
        }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = regex
        }
        return regex
    }
}
