import Hummingbird

/// Answers a range that starts at or after the end of the file as HTTP
/// says (`416 Range Not Satisfiable`, `Content-Range: bytes */LENGTH`, no
/// body) instead of as Hummingbird's file middleware does: a `206` whose
/// `Content-Range` ends before it starts (`bytes N-(N-1)/N`), which declares
/// `Content-Length: 0` and then sends the file's last byte anyway. That
/// stray byte stays on the kept-alive connection and breaks whatever
/// response is read there next (another file's download fails with
/// "invalid constant string"): a client that resumes a part already whole
/// (after a lying `Content-Length`) spoiled an innocent request.
struct UnsatisfiableRangeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard response.status == .partialContent, let range = response.headers[.contentRange],
              let unsatisfiable = Self.lengthIfEmpty(range) else { return response }
        var headers = HTTPFields()
        headers[.contentRange] = "bytes */\(unsatisfiable)"
        // The validators, so the client can tell which version is that long.
        headers[.eTag] = response.headers[.eTag]
        headers[.lastModified] = response.headers[.lastModified]
        return Response(status: .rangeNotSatisfiable, headers: headers, body: ResponseBody())
    }

    /// The length in `bytes START-END/LENGTH` when the range is empty
    /// (END below START), else nil.
    static func lengthIfEmpty(_ contentRange: String) -> Int? {
        guard contentRange.hasPrefix("bytes ") else { return nil }
        let parts = contentRange.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let length = Int(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let start = Int(bounds[0]), let end = Int(bounds[1]), end < start else { return nil }
        return length
    }
}
