import CacheManifest
import Device
import Container
import ContentServer
import FileSystem
import Foundation
import NetworkTransfers

/// The demo's network: its own content server, and the app's downloads
/// through the cache manifest.
extension DemoScript {
    /// Writes the pictures the server serves and starts it on a free port
    /// of 127.0.0.1, so the demo needs no network and no setup.
    func startContentServer() async throws -> ContentServer {
        let images = servedURL.appendingPathComponent("images", isDirectory: true)
        try FileSystemPaths.makeDirectories(atPath: images.path)
        for possession in Possession.samples(createdAt: Date(timeIntervalSinceReferenceDate: 815_000_000)) {
            try FileSystemPaths.writeAtomically(PossessionsApp.picture(of: possession),
                                                toPath: images.appendingPathComponent("\(possession.imageKey).png").path)
        }
        let server = try await ContentServer.start(serving: servedURL.path)
        narrator.write("The demo's content server serves the pictures at \(server.baseURL.absoluteString)images/")
        return server
    }

    /// The URL of a possession's picture on the demo's server.
    func pictureURL(_ possession: Possession) throws -> URL {
        guard let server else { throw DemoError(step: narrator.step, claim: "the content server is running") }
        return server.baseURL.appendingPathComponent("images/\(possession.imageKey).png")
    }

    /// The app downloads every picture into Caches, recorded in its manifest.
    mutating func downloadPictures(into container: AppContainer) async throws {
        let downloader = Downloader()
        let cache = try CachedResources(container: container, downloader: downloader)
        var bytes: Int64 = 0
        do {
            for possession in app.possessions {
                bytes += try await cache.fetch(try pictureURL(possession), as: PossessionsApp.imageName(possession)).size
            }
        } catch {
            await downloader.shutdown()
            throw error
        }
        await downloader.shutdown()
        let entries = try cache.manifest.all()
        narrator.say("downloaded \(entries.count) pictures (\(ByteCountText.format(UInt64(bytes)))) into \(PossessionsApp.imageDirectory)")
        narrator.say("each is recorded in \(CacheManifest.relativePath): URL, ETag, size, SHA-256, fetch time")
        try narrator.check(entries.count == app.possessions.count && entries.allSatisfy { container.fileExists($0.path) },
                           "every picture is on disk and in the cache manifest")
    }

    /// The app's background re-fetch of what its launch check found.
    mutating func refetchPictures(_ problems: [CacheProblem], in container: AppContainer,
                                  conditions: @escaping Downloader.Conditions = { .success(.wifi) }) async throws -> RefetchReport {
        let downloader = Downloader(conditions: conditions)
        let cache = try CachedResources(container: container, downloader: downloader)
        let report = await cache.refetch(problems)
        await downloader.shutdown()
        if let reason = report.unavailable {
            narrator.say("no network (\(reason.rawValue)): \(report.failures.count) pictures are missing and will be fetched when it is back:")
            for failure in report.failures { narrator.say("  \(failure.path)") }
        } else {
            narrator.say("fetched \(report.fetched.count) pictures again (\(ByteCountText.format(UInt64(report.bytes)))) in the background")
        }
        return report
    }

    /// A purge while the device is in airplane mode: the launch check lists
    /// the pictures, the app fetches nothing and says why, and the pictures
    /// come back once airplane mode is off.
    mutating func airplaneMode(on device: Device) async throws {
        narrator.begin("Another purge, then a launch in airplane mode")
        try device.updateNetwork { $0.setAirplaneMode(true) }
        let purged = try device.purge()
        narrator.say("airplane mode on; the purge freed \(ByteCountText.format(purged.bytes))")
        let run = try device.run(PossessionsApp.bundleID, delegate: app)
        try run.launch()
        try run.activate()
        app.events.forEach(narrator.say)
        let container = try run.requireContext().container
        let offline = try await refetchPictures(app.missingImages, in: container, conditions: DeviceConditions.current(of: device))
        try narrator.check(offline.unavailable == .airplaneMode && offline.failures.count == app.possessions.count
                           && offline.fetched.isEmpty,
                           "offline, the app lists the missing pictures and why (airplane mode) and attempts no download")
        try device.updateNetwork { $0.setAirplaneMode(false) }
        narrator.say("airplane mode off")
        let online = try await refetchPictures(app.missingImages, in: container, conditions: DeviceConditions.current(of: device))
        try narrator.check(online.isComplete && online.fetched.count == app.possessions.count,
                           "with the network back, the same pictures are fetched again")
        try run.terminate()
    }
}
