import CoreMetrics
import Prometheus

/// The server's counters, through swift-metrics, exported in Prometheus's
/// text format at `/metrics` (swift-prometheus).
///
/// The registry is the server's own, not the process-wide bootstrap, so
/// several servers in one process (tests) keep separate counts. Counters
/// are per process; what the service stores (per-account usage, unique and
/// referenced bytes) comes from the ledger at each scrape, so every
/// process reports the same figures.
public struct CloudMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let chunksReceived: CoreMetrics.Counter
    let bytesReceived: CoreMetrics.Counter
    let chunksDeduplicated: CoreMetrics.Counter
    let bytesDeduplicated: CoreMetrics.Counter
    let chunksServed: CoreMetrics.Counter
    let bytesServed: CoreMetrics.Counter
    let snapshotsCommitted: CoreMetrics.Counter
    let quotaRefusals: CoreMetrics.Counter
    let chunksCollected: CoreMetrics.Counter

    public init() {
        let factory = PrometheusMetricsFactory(registry: registry)
        chunksReceived = CoreMetrics.Counter(label: "sandbox_cloud_chunks_received_total", factory: factory)
        bytesReceived = CoreMetrics.Counter(label: "sandbox_cloud_bytes_received_total", factory: factory)
        chunksDeduplicated = CoreMetrics.Counter(label: "sandbox_cloud_chunks_deduplicated_total", factory: factory)
        bytesDeduplicated = CoreMetrics.Counter(label: "sandbox_cloud_bytes_deduplicated_total", factory: factory)
        chunksServed = CoreMetrics.Counter(label: "sandbox_cloud_chunks_served_total", factory: factory)
        bytesServed = CoreMetrics.Counter(label: "sandbox_cloud_bytes_served_total", factory: factory)
        snapshotsCommitted = CoreMetrics.Counter(label: "sandbox_cloud_snapshots_committed_total", factory: factory)
        quotaRefusals = CoreMetrics.Counter(label: "sandbox_cloud_quota_refusals_total", factory: factory)
        chunksCollected = CoreMetrics.Counter(label: "sandbox_cloud_chunks_collected_total", factory: factory)
    }

    /// The Prometheus text: this process's counters, then the ledger's figures.
    func exposition(_ totals: LedgerTotals) -> String {
        registry.makeGauge(name: "sandbox_cloud_stored_chunks").set(Double(totals.chunks))
        registry.makeGauge(name: "sandbox_cloud_stored_bytes").set(Double(totals.storedBytes))
        registry.makeGauge(name: "sandbox_cloud_referenced_bytes").set(Double(totals.referencedBytes))
        registry.makeGauge(name: "sandbox_cloud_deduplicated_bytes").set(Double(totals.deduplicatedBytes))
        for account in totals.accounts {
            registry.makeGauge(name: "sandbox_cloud_account_used_bytes", labels: [("account", account.name)]).set(Double(account.used))
            registry.makeGauge(name: "sandbox_cloud_account_quota_bytes", labels: [("account", account.name)]).set(Double(account.quota))
        }
        return registry.emitToString()
    }
}
