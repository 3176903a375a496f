import Hummingbird

/// Each request's context: Hummingbird's core storage, with room for the
/// largest JSON body the API takes (a commit naming 100,000 chunks).
public struct CloudRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    /// The client's IP address (no port), the key of per-client limits.
    public var clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? ""
    }

    public var maxUploadSize: Int { Self.maximumJSONBody }

    /// Decodes a large body off the cooperative pool (see ``CloudJSONDecoder``).
    public var requestDecoder: CloudJSONDecoder { CloudJSONDecoder() }

    /// The largest body a JSON route reads.
    static let maximumJSONBody = 16 << 20
}
