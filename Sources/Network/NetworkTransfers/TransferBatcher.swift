import Container
import NetworkConditions

/// Holds downloads queued within a window and sends them together, so the
/// radio powers up once for the batch instead of once per request: the
/// radios stay in their high-power state for a tail time after each
/// transfer, and a burst every few seconds keeps them there.
///
/// ```swift
/// let batcher = TransferBatcher(downloader: downloader, container: container, window: .seconds(30))
/// async let a = batcher.enqueue(requestA)   // both leave together
/// async let b = batcher.enqueue(requestB)
/// ```
public actor TransferBatcher {
    nonisolated public let downloader: Downloader
    nonisolated public let container: AppContainer
    /// How long the first queued request waits for others.
    public let window: Duration
    /// A batch leaves at once when it has this many requests.
    public let maxBatch: Int
    /// Batches sent so far.
    public private(set) var batchesSent = 0

    private typealias Waiter = CheckedContinuation<Result<DownloadResult, NetworkError>, Never>
    private var queue: [(DownloadRequest, Waiter)] = []
    private var timer: Task<Void, Never>?

    public init(downloader: Downloader, container: AppContainer, window: Duration, maxBatch: Int = 64) {
        self.downloader = downloader
        self.container = container
        self.window = window
        self.maxBatch = max(1, maxBatch)
    }

    /// Queues a download and returns when its batch has run.
    public func enqueue(_ request: DownloadRequest) async throws(NetworkError) -> DownloadResult {
        let outcome = await withCheckedContinuation { (waiter: Waiter) in
            queue.append((request, waiter))
            if queue.count >= maxBatch {
                Task { await self.flush() }
            } else if timer == nil {
                let window = self.window
                timer = Task {
                    try? await Task.sleep(for: window)
                    await self.flush()
                }
            }
        }
        return try outcome.get()
    }

    /// Sends what is queued now.
    public func flush() async {
        timer?.cancel()
        timer = nil
        let batch = queue
        queue = []
        guard !batch.isEmpty else { return }
        batchesSent += 1
        let downloader = self.downloader
        let container = self.container
        await withTaskGroup(of: Void.self) { group in
            for (request, waiter) in batch {
                group.addTask {
                    do throws(NetworkError) {
                        waiter.resume(returning: .success(try await downloader.download(request, into: container)))
                    } catch {
                        waiter.resume(returning: .failure(error))
                    }
                }
            }
        }
    }
}

extension RadioPowerModel {
    /// The radio-on time of transfers that ran during `spans` (closed
    /// ranges, so every span is finite and in order and none is refused).
    public func radioOnTime(for spans: [ClosedRange<Double>]) -> Double {
        var model = self
        for span in spans where span.lowerBound.isFinite && span.upperBound.isFinite {
            try? model.record(start: span.lowerBound, end: span.upperBound)
        }
        return model.radioOnTime
    }
}
