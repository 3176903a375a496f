import ArgumentParser
import CacheManifest
import Device
import NetworkTransfers
import PropertyList

/// `sandbox cache refetch <bundle id>`: fetches again what the check finds.
struct CacheRefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refetch",
        abstract: "Fetch again, from their recorded URLs, the files the launch check finds missing or damaged.",
        discussion: """
            The device's network conditions apply: in airplane mode nothing is attempted and the \
            missing files are listed with the reason. Recorded URLs and redirects may reach only the \
            origins the app declares (Info.plist SBAllowedDownloadHosts, else the manifest's own hosts), and \
            private or link-local addresses only when the device allows its local network.

            Example: sandbox cache refetch com.example.Possessions --parallel 8
            """)

    @OptionGroup var target: CacheTarget

    @Option(help: "Downloads at once.")
    var parallel = 8

    @Flag(help: """
        Let recorded URLs and redirects reach private, link-local and other special-purpose addresses for this run \
        (refused unless the device allows its local network: sandbox network set --local-network on).
        """)
    var allowPrivateNetwork = false

    func run() async throws {
        try await CommandRunner.run {
            let device = try target.options.open()
            let app = try device.app(target.bundleID)
            let container = try app.dataContainer()
            let downloader = Downloader(conditions: DeviceConditions.current(of: device))
            let cache = try CachedResources(container: container, downloader: downloader)
            let bar = CountProgressBar.forStandardError(minimumTotal: 1)
            let localNetwork = try device.network.localNetworkAllowed
            let policy = HostPolicy(allowedOrigins: try Self.declaredOrigins(app.bundle.info.raw),
                                    allowsPrivateAddresses: allowPrivateNetwork || localNetwork)
            let report = try await cache.restoreMissing(concurrency: parallel, hostPolicy: policy) { progress in
                bar?.update(done: progress.done, total: progress.total)
            }
            bar?.finish()
            await downloader.shutdown()
            let result = CacheRefetchJSON(bundleID: target.bundleID, report: report)
            try target.options.output(json: result, text: result.text)
            if !report.isComplete { throw ExitCode(2) }
        }
    }

    /// The origins the app's `Info.plist` allows downloads from
    /// (``HostPolicy/infoPlistKey``), nil when it declares none: the
    /// manifest's own hosts are then the allowed ones.
    static func declaredOrigins(_ info: PropertyListValue) throws(NetworkError) -> Set<String>? {
        guard let value = info[HostPolicy.infoPlistKey] else { return nil }
        guard let entries = value.arrayValue else {
            throw NetworkError(.invalidRequest, url: "", attempts: 0, "Info.plist \(HostPolicy.infoPlistKey) is not an array")
        }
        return try HostPolicy.declaredOrigins(entries.map(\.stringValue))
    }
}
