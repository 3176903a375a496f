import Hummingbird

/// Answers a method the API does not define for a path it serves with 405
/// and an `Allow` header (RFC 9110), instead of the 404 Hummingbird's router
/// gives when only the method fails to match, so a client can tell a wrong
/// method from a wrong path.
enum MethodNotAllowed {
    /// The methods a client may try; every one a path does not define
    /// answers 405. QUERY (the safe method with a body) has no constant in
    /// HTTPTypes yet.
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace]
        + [HTTPRequest.Method("QUERY")].compactMap { $0 }

    /// Adds the 405 answers for every path `router` serves so far: call it
    /// after the last route.
    static func add(to router: Router<CloudRequestContext>) {
        let paths = Dictionary(grouping: router.routes, by: { $0.path.description })
        for (_, routes) in paths.sorted(by: { $0.key < $1.key }) {
            guard let path = routes.first?.path else { continue }
            let defined = Set(routes.map(\.method))
            let allow = methods.filter(defined.contains).map(\.rawValue).joined(separator: ", ")
            for method in methods where !defined.contains(method) {
                router.on(path, method: method) { request, context -> Response in
                    let error = CloudServiceError(.methodNotAllowed, "\(request.method) is not a method of \(request.uri.path); use \(allow)")
                    var response = try error.response(from: request, context: context)
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}
