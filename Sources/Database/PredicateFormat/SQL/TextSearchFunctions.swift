import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#elseif canImport(SQLite3)
import SQLite3
#endif

// The hot functions (`pf_contains`, `pf_beginswith`, `pf_endswith`, `pf_fold`) are
// registered through SQLite's C API rather than `DatabaseFunction`: they read the
// row's UTF-8 bytes in place, so an ASCII row costs no allocation and no String.
// This is what keeps `name CONTAINS[c] %@` near hand-written SQL on large tables.

private let deterministic = Int32(SQLITE_UTF8) | Int32(SQLITE_DETERMINISTIC)

extension Database {
    func registerTextSearchFunctions() {
        guard let connection = sqliteConnection else { return }
        sqlite3_create_function_v2(connection, PredicateFunctions.contains, 3, deterministic, nil, { context, _, argv in
            textSearch(context, argv, .contains)
        }, nil, nil, nil)
        sqlite3_create_function_v2(connection, PredicateFunctions.beginsWith, 3, deterministic, nil, { context, _, argv in
            textSearch(context, argv, .beginsWith)
        }, nil, nil, nil)
        sqlite3_create_function_v2(connection, PredicateFunctions.endsWith, 3, deterministic, nil, { context, _, argv in
            textSearch(context, argv, .endsWith)
        }, nil, nil, nil)
        sqlite3_create_function_v2(connection, PredicateFunctions.fold, 2, deterministic, nil, { context, _, argv in
            foldFunction(context, argv)
        }, nil, nil, nil)
        // The sort collations compare the two values' bytes in place; ASCII takes no String at all.
        for (index, comparison) in SortComparison.allCases.enumerated() {
            guard let name = comparison.collationName else { continue }
            sqlite3_create_collation_v2(connection, name, SQLITE_UTF8, UnsafeMutableRawPointer(bitPattern: index + 1), { context, aCount, a, bCount, b in
                let index = Int(bitPattern: context) - 1
                guard SortComparison.allCases.indices.contains(index) else { return 0 }
                let x = UnsafeBufferPointer(start: a?.assumingMemoryBound(to: UInt8.self), count: Int(aCount))
                let y = UnsafeBufferPointer(start: b?.assumingMemoryBound(to: UInt8.self), count: Int(bCount))
                return Int32(SortComparison.allCases[index].compareBytes(x, y))
            }, nil)
        }
    }
}

private func bytes(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
    guard let value, sqlite3_value_type(value) != SQLITE_NULL else { return nil }
    // sqlite3_value_text first, then sqlite3_value_bytes: the order SQLite documents.
    guard let text = sqlite3_value_text(value) else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
}

private func textSearch(_ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?, _ op: ComparisonOperator) {
    guard let argv, let haystack = bytes(argv[0]), let needle = bytes(argv[1]) else {
        sqlite3_result_int(context, 0)
        return
    }
    let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(argv[2]))).folding
    sqlite3_result_int(context, TextSearchKernel.test(op, haystack: haystack, foldedNeedle: needle, options: options) ? 1 : 0)
}

private func foldFunction(_ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let argv, let text = bytes(argv[0]) else {
        sqlite3_result_null(context)
        return
    }
    let options = ComparisonOptions(rawValue: Int(sqlite3_value_int(argv[1]))).folding
    // SQLITE_TRANSIENT: SQLite copies the bytes before we return.
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    var hasUppercase = false
    var isASCII = true
    for byte in text {
        if byte >= 0x80 { isASCII = false; break }
        if byte &- 0x41 < 26 { hasUppercase = true }
    }
    if isASCII {
        // ASCII folds to itself, or to its lowercase under [c]: no String, no Foundation.
        let lowercasing = hasUppercase && options.contains(.caseInsensitive)
        if !lowercasing, sqlite3_value_type(argv[0]) == SQLITE_TEXT {
            sqlite3_result_value(context, argv[0])
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(text.count, 1)) { buffer in
            guard let base = buffer.baseAddress else { return sqlite3_result_null(context) }
            for index in 0..<text.count {
                let byte = text[index]
                buffer[index] = lowercasing && byte &- 0x41 < 26 ? byte | 0x20 : byte
            }
            sqlite3_result_text(context, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(text.count), transient)
        }
        return
    }
    var folded = StringFolding.fold(String(decoding: text, as: UTF8.self), options)
    folded.withUTF8 { buffer in
        sqlite3_result_text(context, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                            Int32(buffer.count), transient)
    }
}

/// The byte-level search behind the SQL functions.
///
/// With folding and an ASCII needle, the haystack is searched as it is, ASCII
/// letters lowercased on the fly. A match found that way survives the full folding
/// (folding only rewrites non-ASCII characters and drops combining marks, which never
/// breaks an all-ASCII run of bytes), so only a haystack with non-ASCII bytes and no
/// such match is folded for real, through ``StringFolding``.
enum TextSearchKernel {
    static func test(_ op: ComparisonOperator, haystack: UnsafeBufferPointer<UInt8>, foldedNeedle needle: UnsafeBufferPointer<UInt8>, options: ComparisonOptions) -> Bool {
        if options.isEmpty {
            return search(op, haystack, needle, lowercasing: false).found
        }
        if hasNonASCII(needle, from: 0) {
            // Only an ASCII window is known to survive folding: fold the haystack, unless
            // it is ASCII and so cannot hold the needle at all.
            if !hasNonASCII(haystack, from: 0) { return false }
        } else {
            let quick = search(op, haystack, needle, lowercasing: options.contains(.caseInsensitive))
            if quick.found { return true }
            if !quick.sawNonASCII && !hasNonASCII(haystack, from: quick.scannedUpTo) { return false }
        }
        var folded = StringFolding.fold(String(decoding: haystack, as: UTF8.self), options)
        return folded.withUTF8 { search(op, $0, needle, lowercasing: false).found }
    }

    @inline(__always)
    private static func lower(_ byte: UInt8, _ lowercasing: Bool) -> UInt8 {
        lowercasing && byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    private static func hasNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        while index < bytes.count {
            if bytes[index] >= 0x80 { return true }
            index += 1
        }
        return false
    }

    /// Whether the needle occurs; whether a non-ASCII byte was seen in `0..<scannedUpTo`.
    private static func search(_ op: ComparisonOperator, _ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowercasing: Bool) -> (found: Bool, sawNonASCII: Bool, scannedUpTo: Int) {
        let n = needle.count, h = haystack.count
        guard n > 0, n <= h else { return (false, false, 0) }
        @inline(__always) func matches(at start: Int) -> Bool {
            var index = 1
            while index < n {
                if lower(haystack[start + index], lowercasing) != needle[index] { return false }
                index += 1
            }
            return true
        }
        let first = needle[0]
        switch op {
        case .beginsWith:
            return (lower(haystack[0], lowercasing) == first && matches(at: 0), false, 0)
        case .endsWith:
            return (lower(haystack[h - n], lowercasing) == first && matches(at: h - n), false, 0)
        default:
            var start = 0
            var high: UInt8 = 0
            let last = h - n
            while start <= last {
                let byte = haystack[start]
                high |= byte
                if lower(byte, lowercasing) == first && matches(at: start) { return (true, false, 0) }
                start += 1
            }
            return (false, high >= 0x80, start)
        }
    }
}
