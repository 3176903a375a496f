import Hummingbird
import NIOCore

/// Injects the next fault for a request's path into its response; the
/// file middleware below it produces the real response.
struct FaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let book: FaultBook

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // The control endpoints are the test's own requests: not counted,
        // never spoiled.
        if path.hasPrefix("/_control/") { return try await next(request, context) }
        let fault = book.take(method: request.method.rawValue, path: path, hasRange: request.headers[.range] != nil)
        if let fault, fault.kind == .unavailable {
            var headers = HTTPFields()
            headers[.retryAfter] = String(Int(fault.seconds.rounded(.up)))
            return Response(status: .serviceUnavailable, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "try again later\n")))
        }
        if let fault, fault.kind == .redirect {
            var headers = HTTPFields()
            headers[.location] = fault.location ?? "/"
            return Response(status: .found, headers: headers)
        }
        if let fault, fault.kind == .endless {
            let book = self.book
            // No length: the body is chunked and ends only when the client
            // closes the connection (the write then throws).
            return Response(status: .ok, body: ResponseBody { writer in
                let chunk = ByteBuffer(repeating: 0x5A, count: 64 * 1024)
                while true {
                    try await writer.write(chunk)
                    book.countBody(chunk.readableBytes)
                }
            })
        }
        var response = try await next(request, context)
        let book = self.book
        let body = response.body
        var declared = body.contentLength
        if let fault, fault.kind == .wrongLength, let length = declared {
            declared = length + fault.afterBytes
            response.headers[.contentLength] = String(length + fault.afterBytes)
        }
        response.body = ResponseBody(contentLength: declared) { writer in
            try await body.write(FaultingWriter(inner: writer, fault: fault, book: book))
        }
        return response
    }
}

/// Passes a body through, striking with its fault on the way.
struct FaultingWriter: ResponseBodyWriter {
    var inner: any ResponseBodyWriter
    let fault: ContentFault?
    let book: FaultBook
    var written = 0
    var struck = false

    /// The connection is dropped: Hummingbird closes the channel when the
    /// body writer throws.
    struct InjectedReset: Error {}

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        if let fault, fault.kind == .drip, written + buffer.readableBytes > fault.afterBytes {
            try await drip(&buffer, fault)
        }
        if let fault, fault.kind == .reset || fault.kind == .stall, !struck,
           written + buffer.readableBytes > fault.afterBytes {
            struck = true
            let head = fault.afterBytes - written
            if let part = buffer.readSlice(length: head), part.readableBytes > 0 {
                try await inner.write(part)
                written += part.readableBytes
                book.countBody(part.readableBytes)
            }
            if fault.kind == .reset { throw InjectedReset() }
            try await Task.sleep(for: .milliseconds(Int(fault.seconds * 1000)))
        }
        guard buffer.readableBytes > 0 else { return }
        written += buffer.readableBytes
        book.countBody(buffer.readableBytes)
        try await inner.write(buffer)
    }

    /// Sends what comes before the fault's offset at once, then the rest
    /// one byte every `seconds`.
    private mutating func drip(_ buffer: inout ByteBuffer, _ fault: ContentFault) async throws {
        if written < fault.afterBytes, let head = buffer.readSlice(length: fault.afterBytes - written) {
            try await inner.write(head)
            written += head.readableBytes
            book.countBody(head.readableBytes)
        }
        while let byte = buffer.readSlice(length: 1) {
            try await Task.sleep(for: .milliseconds(Int(fault.seconds * 1000)))
            try await inner.write(byte)
            written += 1
            book.countBody(1)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        if let fault, fault.kind == .wrongLength { throw InjectedReset() }
        try await inner.finish(trailingHeaders)
    }
}
