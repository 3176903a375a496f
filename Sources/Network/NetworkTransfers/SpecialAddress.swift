import Foundation

/// What kind of address a numeric IPv4 or IPv6 address is, for the
/// ``HostPolicy``: the special-purpose ranges of the IANA registries
/// (RFC 6890 and its updates) that a download from a manifest must not
/// reach, loopback (allowed: the device itself), or global.
enum SpecialAddress: Equatable {
    case loopback
    case global
    /// In a special-purpose range, named (`10.0.0.0/8 (private)`).
    case special(String)
    /// Not a numeric address at all.
    case unparsable

    /// Classifies a numeric address: dotted-quad IPv4, or IPv6 (with `::`,
    /// an embedded IPv4 tail, brackets and a zone allowed).
    static func classify(_ text: String) -> SpecialAddress {
        if let v4 = ipv4(text) { return classify(v4: v4) }
        var bare = Substring(text)
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        if let zone = bare.firstIndex(of: "%") { bare = bare[..<zone] }
        guard let v6 = ipv6(bare) else { return .unparsable }
        return classify(v6: v6)
    }

    /// Whether `text` is written as a numeric address (no resolution needed).
    static func isLiteral(_ text: String) -> Bool { classify(text) != .unparsable }

    private static let v4Ranges: [(prefix: [UInt8], bits: Int, name: String)] = [
        ([0], 8, "0.0.0.0/8 (this network)"),
        ([10], 8, "10.0.0.0/8 (private)"),
        ([100, 64], 10, "100.64.0.0/10 (shared address space)"),
        ([169, 254], 16, "169.254.0.0/16 (link-local)"),
        ([172, 16], 12, "172.16.0.0/12 (private)"),
        ([192, 0, 0], 24, "192.0.0.0/24 (protocol assignments)"),
        ([192, 0, 2], 24, "192.0.2.0/24 (documentation)"),
        ([192, 88, 99], 24, "192.88.99.0/24 (relay anycast)"),
        ([192, 168], 16, "192.168.0.0/16 (private)"),
        ([198, 18], 15, "198.18.0.0/15 (benchmarking)"),
        ([198, 51, 100], 24, "198.51.100.0/24 (documentation)"),
        ([203, 0, 113], 24, "203.0.113.0/24 (documentation)"),
        ([224], 4, "224.0.0.0/4 (multicast)"),
        ([240], 4, "240.0.0.0/4 (reserved, broadcast)"),
    ]

    private static let v6Ranges: [(prefix: [UInt8], bits: Int, name: String)] = [
        ([0xfc], 7, "fc00::/7 (unique local)"),
        ([0xfe, 0x80], 10, "fe80::/10 (link-local)"),
        ([0xfe, 0xc0], 10, "fec0::/10 (site-local)"),
        ([0xff], 8, "ff00::/8 (multicast)"),
        ([0x20, 0x01, 0x0d, 0xb8], 32, "2001:db8::/32 (documentation)"),
        ([0x20, 0x01, 0x00, 0x00], 23, "2001::/23 (protocol assignments)"),
        ([0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, "100::/64 (discard)"),
    ]

    private static func classify(v4: [UInt8]) -> SpecialAddress {
        if v4[0] == 127 { return .loopback }
        for range in v4Ranges where matches(v4, range.prefix, bits: range.bits) { return .special(range.name) }
        return .global
    }

    private static func classify(v6: [UInt8]) -> SpecialAddress {
        let zeros = v6[0..<10].allSatisfy { $0 == 0 }
        if zeros, v6[10] == 0xff, v6[11] == 0xff { return classify(v4: Array(v6[12...])) }  // ::ffff:a.b.c.d
        if v6[0..<15].allSatisfy({ $0 == 0 }) {
            return v6[15] == 1 ? .loopback : .special("::/128 (unspecified) or ::/96 (IPv4-compatible)")
        }
        if zeros, v6[10] == 0, v6[11] == 0 { return .special("::/96 (IPv4-compatible)") }
        // NAT64 (64:ff9b::/96) reaches the IPv4 address in its tail.
        if v6[0..<12].elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]) {
            let inner = classify(v4: Array(v6[12...]))
            return inner == .loopback ? .special("64:ff9b::/96 (NAT64 of loopback)") : inner
        }
        if v6[0] == 0x20, v6[1] == 0x02 { return .special("2002::/16 (6to4)") }
        for range in v6Ranges where matches(v6, range.prefix, bits: range.bits) { return .special(range.name) }
        return .global
    }

    private static func matches(_ address: [UInt8], _ prefix: [UInt8], bits: Int) -> Bool {
        var remaining = bits
        for (index, byte) in prefix.enumerated() where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            if address[index] & mask != byte & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// Four decimal octets, nothing else (the strict form resolvers print).
    static func ipv4(_ text: some StringProtocol) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// Sixteen bytes of an IPv6 text form, or nil.
    static func ipv6(_ text: Substring) -> [UInt8]? {
        guard text.contains(":") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, allowsTail: Bool) -> [UInt8]? {
            if part.isEmpty { return [] }
            var bytes: [UInt8] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if allowsTail, index == fields.count - 1, field.contains(".") {
                    guard let tail = ipv4(field) else { return nil }
                    bytes += tail
                } else {
                    guard (1...4).contains(field.count), let value = UInt16(field, radix: 16) else { return nil }
                    bytes += [UInt8(value >> 8), UInt8(value & 0xff)]
                }
            }
            return bytes
        }
        guard let head = groups(halves[0], allowsTail: halves.count == 1) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1], allowsTail: true), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
