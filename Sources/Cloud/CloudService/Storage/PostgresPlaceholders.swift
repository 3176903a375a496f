/// Rewrites the ledger's `?` placeholders into PostgreSQL's numbered
/// `$1`, `$2`… in order of appearance.
///
/// A `?` is a placeholder only in the SQL itself: inside a string literal
/// (`'…'`, with `''` escapes, or `E'…'` with backslash escapes), a quoted
/// identifier (`"…"`), a dollar-quoted body (`$$…$$`, `$tag$…$tag$`) or a
/// comment (`-- …`, `/* … */`, which nest in PostgreSQL) it is left as it
/// is. PostgreSQL's own `?` operators (jsonb) cannot be written in ledger
/// SQL, which has none.
enum PostgresPlaceholders {
    /// The rewritten statement and how many placeholders it has.
    static func rewrite(_ sql: String) -> (sql: String, count: Int) {
        let scalars = Array(sql.unicodeScalars)
        var output = String.UnicodeScalarView()
        output.reserveCapacity(scalars.count + 8)
        var count = 0
        var index = 0

        /// Copies `scalars[from..<to]` as they are.
        func copy(_ from: Int, _ to: Int) { output.append(contentsOf: scalars[from..<min(to, scalars.count)]) }

        while index < scalars.count {
            let scalar = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "?":
                count += 1
                output.append(contentsOf: "$\(count)".unicodeScalars)
                index += 1
            case "'":
                let escapes = isEscapeStringPrefix(scalars, at: index)
                let end = endOfQuoted(scalars, from: index, quote: "'", backslashEscapes: escapes)
                copy(index, end)
                index = end
            case "\"":
                let end = endOfQuoted(scalars, from: index, quote: "\"", backslashEscapes: false)
                copy(index, end)
                index = end
            case "-" where next == "-":
                var end = index + 2
                while end < scalars.count, scalars[end] != "\n" { end += 1 }
                copy(index, end)
                index = end
            case "/" where next == "*":
                let end = endOfBlockComment(scalars, from: index)
                copy(index, end)
                index = end
            case "$":
                if let tagEnd = dollarQuoteTagEnd(scalars, from: index) {
                    let tag = Array(scalars[index...tagEnd])
                    let end = endOfDollarQuoted(scalars, bodyStart: tagEnd + 1, tag: tag)
                    copy(index, end)
                    index = end
                } else {
                    output.append(scalar)
                    index += 1
                }
            default:
                output.append(scalar)
                index += 1
            }
        }
        return (String(output), count)
    }

    /// Whether the quote at `index` opens an `E'…'` string, where a
    /// backslash escapes the next character: the `E` must stand alone, not
    /// end an identifier such as `TABLE'`.
    private static func isEscapeStringPrefix(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index >= 1, scalars[index - 1] == "E" || scalars[index - 1] == "e" else { return false }
        return index < 2 || !isIdentifierScalar(scalars[index - 2])
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    /// The index just past the quoted run that opens at `start`; a
    /// doubled quote stays inside. An unterminated run ends the statement.
    private static func endOfQuoted(_ scalars: [Unicode.Scalar], from start: Int, quote: Unicode.Scalar,
                                    backslashEscapes: Bool) -> Int {
        var index = start + 1
        while index < scalars.count {
            let scalar = scalars[index]
            if backslashEscapes, scalar == "\\" {
                index += 2
            } else if scalar == quote {
                if index + 1 < scalars.count, scalars[index + 1] == quote {
                    index += 2
                } else {
                    return index + 1
                }
            } else {
                index += 1
            }
        }
        return scalars.count
    }

    /// The index just past the `/* … */` comment at `start`, counting
    /// nested comments as PostgreSQL does.
    private static func endOfBlockComment(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < scalars.count {
            if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                depth += 1
                index += 2
            } else if scalars[index] == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return scalars.count
    }

    /// When the `$` at `start` opens a dollar quote (`$$` or `$tag$`, the
    /// tag an identifier that does not start with a digit), the index of
    /// its closing `$`; nil for `$1` and for a `$` inside an identifier.
    private static func dollarQuoteTagEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        if start > 0, isIdentifierScalar(scalars[start - 1]) { return nil }
        var index = start + 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$" { return index }
            let isDigit = ("0"..."9").contains(scalar)
            guard scalar == "_" || scalar.properties.isAlphabetic || (isDigit && index > start + 1) else { return nil }
            index += 1
        }
        return nil
    }

    /// The index just past the closing `tag` of a dollar-quoted body.
    private static func endOfDollarQuoted(_ scalars: [Unicode.Scalar], bodyStart: Int, tag: [Unicode.Scalar]) -> Int {
        var index = bodyStart
        while index + tag.count <= scalars.count {
            if scalars[index] == "$", Array(scalars[index..<index + tag.count]) == tag { return index + tag.count }
            index += 1
        }
        return scalars.count
    }
}
