/// A failure the content server injects into its next responses for a path,
/// so clients can be tested against what real networks do: a connection
/// reset in the middle of a body, a stall, a 503 with `Retry-After`, a
/// `Content-Length` that lies.
public struct ContentFault: Codable, Sendable, Equatable {
    /// What goes wrong.
    public enum Kind: String, Codable, Sendable {
        /// The connection is closed after ``ContentFault/afterBytes`` bytes
        /// of the body (the client sees a premature end).
        case reset
        /// The body pauses for ``ContentFault/seconds`` after
        /// ``ContentFault/afterBytes`` bytes, then goes on.
        case stall
        /// `503 Service Unavailable` with `Retry-After:`
        /// ``ContentFault/seconds`` (whole seconds, as HTTP allows).
        case unavailable
        /// The response declares ``ContentFault/afterBytes`` more bytes than
        /// it sends, then closes the connection.
        case wrongLength
        /// A hostile server: `200` with no `Content-Length` and a body that
        /// never ends (until the client closes the connection).
        case endless
        /// A hostile server: the body sends one byte every
        /// ``ContentFault/seconds`` after ``ContentFault/afterBytes`` bytes,
        /// never silent long enough for a stall timeout.
        case drip
        /// `302 Found` to ``ContentFault/location``.
        case redirect
    }

    /// The request path it applies to (`/maps/tile-1.png`), or `*` for any.
    public var path: String
    public var kind: Kind
    /// Where in the body the fault strikes (reset, stall), or how many bytes
    /// the length overstates (wrongLength).
    public var afterBytes: Int
    /// How long a stall lasts, or the `Retry-After` of a 503.
    public var seconds: Double
    /// How many matching requests it spoils before it is used up.
    public var times: Int
    /// Where a redirect points.
    public var location: String?

    public init(path: String, kind: Kind, afterBytes: Int = 0, seconds: Double = 0, times: Int = 1, location: String? = nil) {
        self.path = path
        self.kind = kind
        self.afterBytes = afterBytes
        self.seconds = seconds
        self.times = times
        self.location = location
    }

    func matches(_ requestPath: String) -> Bool { path == "*" || path == requestPath }
}
