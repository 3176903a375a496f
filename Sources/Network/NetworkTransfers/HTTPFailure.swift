import AsyncHTTPClient
import NIOCore
import NIOPosix

/// What an error of the HTTP stack means for a transfer.
enum HTTPFailure {
    static func code(of error: any Error) -> NetworkError.Code {
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return .stalled
            case .deadlineExceeded: return .timedOut
            case .cancelled: return .cancelled
            case .connectTimeout: return .refused
            default: return .connectionLost
            }
        }
        if let error = error as? IOError, error.errnoCode == 111 /* ECONNREFUSED */ { return .refused }
        if error is NIOConnectionError { return .refused }
        if let error = error as? ChannelError, case .connectTimeout = error { return .refused }
        return .connectionLost
    }
}
