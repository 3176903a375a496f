import FileSystem
import Foundation

/// A file to download into a container.
public struct DownloadRequest: Sendable, Equatable {
    /// The source.
    public var url: URL
    /// The final path, relative to the container root
    /// (`Library/Caches/maps/tile-1.png`). The file appears there only when
    /// complete and verified.
    public var destination: String
    /// The expected SHA-256 (lowercase hex), when known: a download whose
    /// content differs is refused and fetched again from byte 0.
    public var expectedSHA256: String?
    /// The expected size, when known.
    public var expectedSize: Int64?
    /// What must survive a power loss when the call returns: `.full` (the
    /// default) flushes the file before its rename and the directory after;
    /// `.none` flushes nothing, for a batch whose caller flushes the file
    /// system once at the end (a re-fetch of many files does).
    public var durability: Durability
    /// The most bytes the body may have (the cache's hard limit, say); the
    /// download stops as soon as it passes this, the expected size or the
    /// server's declared length, whichever is smallest.
    public var sizeLimit: Int64?
    /// Where the download and its redirects may go.
    public var hostPolicy: HostPolicy

    public init(url: URL, destination: String, expectedSHA256: String? = nil, expectedSize: Int64? = nil,
                durability: Durability = .full, sizeLimit: Int64? = nil, hostPolicy: HostPolicy = HostPolicy()) {
        self.url = url
        self.destination = destination
        self.expectedSHA256 = expectedSHA256
        self.expectedSize = expectedSize
        self.durability = durability
        self.sizeLimit = sizeLimit
        self.hostPolicy = hostPolicy
    }
}

/// Where a download is.
public struct DownloadProgress: Sendable, Equatable {
    public var url: URL
    /// Bytes of the file now on disk (a resumed download starts above 0).
    public var bytes: Int64
    /// The whole size, once the server has said it.
    public var total: Int64?
}

/// A finished download.
public struct DownloadResult: Sendable, Equatable {
    /// The final path, relative to the container root.
    public var path: String
    public var size: Int64
    /// SHA-256 of the content, lowercase hex.
    public var sha256: String
    public var etag: String?
    public var lastModified: String?
    /// The byte the last attempt started from (above 0 when resumed).
    public var resumedFrom: Int64
    /// Body bytes received over the network, all attempts together.
    public var bytesReceived: Int64
    /// Attempts made.
    public var attempts: Int
    /// When the transfer started and ended (seconds since 1970), for the
    /// radio model.
    public var started: Double
    public var ended: Double
    /// The redirects followed, in order (each an allowed origin): reported,
    /// never silent.
    public var redirects: [String] = []
}
