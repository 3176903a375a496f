import CloudBackup
import Device

/// What `sandbox cloud backup` and `sandbox cloud restore` share: both
/// move the signed-in device's data with a progress bar on standard error
/// (none with `--json`) and then print the transfer's report.
enum CloudTransferRunner {
    /// Opens the device and its iCloud account, runs `transfer` with them
    /// and a progress callback, and prints the report as JSON with
    /// `--json`, else as `text` makes it.
    static func run<Report: Encodable>(
        _ options: DeviceOptions,
        text: (Report) -> String,
        _ transfer: (Device, CloudAccount, @escaping @Sendable (CloudProgress) -> Void) async throws -> Report
    ) async throws {
        try await CommandRunner.run {
            let device = try options.open()
            let account = try CloudAccount.load(from: device)
            let bar = CloudProgressBar(quiet: options.json)
            let report = try await transfer(device, account, bar.update)
            bar.finish()
            try options.output(json: report, text: text(report))
        }
    }
}
