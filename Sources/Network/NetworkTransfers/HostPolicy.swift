import Foundation

/// Where a download may go. A URL read from the cache manifest (which the
/// app, or whoever can write its container, controls) or from a redirect
/// must not turn the device into a probe of its own network:
///
/// - the origin must be one the app declared (``allowedOrigins``: the
///   manifest's hosts at download time, or the `SBAllowedDownloadHosts`
///   list of its `Info.plist`, ``infoPlistKey``);
/// - the address, the literal one and every one its name resolves to, must
///   not be private, link-local or otherwise special-purpose, unless the
///   device allows them (``allowsPrivateAddresses``); loopback is allowed;
/// - a redirect is followed only to an allowed origin (to the same origin
///   when no list is given), at most ``maxRedirects`` times, and every hop
///   is reported (``DownloadResult/redirects``), never silent.
///
/// The check runs before each attempt connects: a refused target costs no
/// connection at all (``NetworkError/Code/hostRefused``, 0 attempts).
public struct HostPolicy: Sendable, Equatable {
    /// The `Info.plist` key of an app's allow-list: an array of strings,
    /// each `host` (any port) or `host:port`.
    public static let infoPlistKey = "SBAllowedDownloadHosts"

    /// Origins (`host` or `host:port`, compared without case) that downloads
    /// and redirects may reach; nil admits the request's own origin (an URL
    /// the app named itself) and redirects within it only.
    public var allowedOrigins: Set<String>?
    /// Whether private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local
    /// and other special-purpose addresses may be reached.
    public var allowsPrivateAddresses: Bool
    /// Redirects followed at most, for one download.
    public var maxRedirects: Int

    public init(allowedOrigins: Set<String>? = nil, allowsPrivateAddresses: Bool = false, maxRedirects: Int = 3) {
        self.allowedOrigins = allowedOrigins.map { Set($0.map { $0.lowercased() }) }
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.maxRedirects = max(0, maxRedirects)
    }

    /// The origins of `urls` (`host:port` when a port is given), for a
    /// policy that admits what a manifest names.
    public static func origins(of urls: some Sequence<String>) -> Set<String> {
        Set(urls.compactMap { URL(string: $0).flatMap(Self.origin(of:)) })
    }

    /// The allow-list of an app's `Info.plist` (``infoPlistKey``): its
    /// entries, nil for one that is not a string. An entry that is not a
    /// `host` or `host:port` is refused by its index.
    public static func declaredOrigins(_ entries: [String?]) throws(NetworkError) -> Set<String> {
        var origins = Set<String>()
        for (index, entry) in entries.enumerated() {
            guard let text = entry, !text.isEmpty, !text.contains("/"), !text.contains(where: \.isWhitespace) else {
                throw NetworkError(.invalidRequest, url: "", attempts: 0,
                                   "Info.plist \(infoPlistKey)[\(index)] is not a host or host:port string")
            }
            origins.insert(text.lowercased())
        }
        return origins
    }

    /// `host:port`, or the host alone for a URL without a port; lowercase.
    static func origin(of url: URL) -> String? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// Whether `url`'s origin may be reached, `from` the origin of the
    /// request that led there (the request's own origin is admitted when no
    /// list is given).
    func admitsOrigin(of url: URL, from start: URL) -> Bool {
        guard let origin = Self.origin(of: url), let host = url.host?.lowercased() else { return false }
        guard let allowedOrigins else { return origin == Self.origin(of: start) }
        return allowedOrigins.contains(origin) || allowedOrigins.contains(host)
    }

    /// Why `address` (numeric, as a resolver gives it) may not be reached,
    /// or nil when it may.
    func refusal(of address: String) -> String? {
        switch SpecialAddress.classify(address) {
        case .unparsable: "\(address) is not an address"
        case .loopback, .global: nil
        case .special(let range): allowsPrivateAddresses ? nil : "\(address) is in \(range), which the device does not allow"
        }
    }
}

/// Resolves a host name to its numeric addresses, as the connection will:
/// the policy checks what the name points at, not only how it is spelled
/// (a name pointing at 10.0.0.1 is refused like 10.0.0.1).
public struct AddressResolver: Sendable {
    let resolve: @Sendable (String) async -> [String]

    /// A resolver answering with `resolve` (tests give a name private
    /// addresses without touching DNS).
    public init(_ resolve: @escaping @Sendable (String) async -> [String]) {
        self.resolve = resolve
    }

    /// The system's resolver (getaddrinfo, through Foundation's `Host`),
    /// run on a thread of its own: it blocks, and must not hold one of the
    /// cooperative pool's threads.
    public static let system = AddressResolver { name in
        await withCheckedContinuation { done in
            DispatchQueue.global().async { done.resume(returning: Host(name: name).addresses) }
        }
    }
}
