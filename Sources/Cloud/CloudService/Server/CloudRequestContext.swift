import Hummingbird

/// Each request's context: Hummingbird's core storage, with room for the
/// largest JSON body the API takes (a commit naming 100,000 chunks).
public struct CloudRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { 16 << 20 }
}
