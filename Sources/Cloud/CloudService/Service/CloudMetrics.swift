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

    /// The registry's gauge named `name` (whole: no unit suffix is added),
    /// with an `account` label when given.
    private func gauge(_ name: String, _ help: String, account: String? = nil) -> Prometheus.Gauge {
        let descriptor = MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
        guard let account else { return registry.makeGauge(descriptor: descriptor) }
        return registry.makeGauge(descriptor: descriptor, labels: [("account", account)])
    }

    /// The Prometheus text: this process's counters, then the ledger's figures.
    func exposition(_ totals: LedgerTotals) -> String {
        gauge("sandbox_cloud_stored_chunks", "Chunks stored, all accounts").set(Double(totals.chunks))
        gauge("sandbox_cloud_stored_bytes", "Bytes stored, all accounts").set(Double(totals.storedBytes))
        gauge("sandbox_cloud_referenced_bytes", "Bytes the snapshots refer to, all accounts").set(Double(totals.referencedBytes))
        gauge("sandbox_cloud_deduplicated_bytes", "Bytes deduplication saved, all accounts").set(Double(totals.deduplicatedBytes))
        for account in totals.accounts {
            gauge("sandbox_cloud_account_used_bytes", "Bytes an account uses", account: account.name).set(Double(account.used))
            gauge("sandbox_cloud_account_quota_bytes", "An account's quota in bytes", account: account.name).set(Double(account.quota))
        }
        return registry.emitToString()
    }
}
