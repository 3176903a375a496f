import ArgumentParser
import CacheManifest
import Device
import NetworkTransfers

/// `sandbox cache refetch <bundle id>`: fetches again what the check finds.
struct CacheRefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refetch",
        abstract: "Fetch again, from their recorded URLs, the files the launch check finds missing or damaged.",
        discussion: """
            The device's network conditions apply: in airplane mode nothing is attempted and the \
            missing files are listed with the reason.

            Example: sandbox cache refetch com.example.Possessions --parallel 8
            """)

    @OptionGroup var target: CacheTarget

    @Option(help: "Downloads at once.")
    var parallel = 8

    func run() async throws {
        try await CommandRunner.run {
            let device = try target.options.open()
            let container = try device.app(target.bundleID).dataContainer()
            let downloader = Downloader(conditions: DeviceConditions.current(of: device))
            let cache = try CachedResources(container: container, downloader: downloader)
            let bar = CountProgressBar.forStandardError(minimumTotal: 1)
            let report = try await cache.restoreMissing(concurrency: parallel) { progress in
                bar?.update(done: progress.done, total: progress.total)
            }
            bar?.finish()
            await downloader.shutdown()
            let result = CacheRefetchJSON(bundleID: target.bundleID, report: report)
            try target.options.output(json: result, text: result.text)
            if !report.isComplete { throw ExitCode(2) }
        }
    }
}
