import Device
import Foundation
import MobileBackup

/// The JSON shapes of `sandbox backup` output (keys sorted when printed).
/// Each shape's stored properties are its keys; the extensions below map
/// the models onto them with the memberwise initializers.
enum BackupJSON {
    struct Device: Encodable {
        var udid, name, productType, productVersion, buildVersion, serialNumber: String
    }

    struct Summary: Encodable {
        var path: String
        var device: Device
        var date: Date?
        var snapshotState: String?
        var encrypted, writtenBySandbox, hasManifestPlist, hasStatusPlist: Bool
        var fullBackup: Bool?
        var applications: [String]
    }

    struct Domain: Encodable {
        var domain: String
        var files = 0, directories = 0, symbolicLinks = 0
        var bytes: Int64 = 0
    }

    struct Info: Encodable {
        var backup: Summary
        /// Nil when the backup is encrypted and no password was given.
        var domains: [Domain]?
    }

    struct Problem: Encodable {
        var domain, relativePath, fileID, kind, message: String
    }

    struct Verification: Encodable {
        var path: String
        var verifiedFiles, uncheckedDigests: Int
        var verifiedBytes: Int64
        var problems: [Problem]
        var clean: Bool
    }

    struct Created: Encodable {
        var path: String
        var encrypted, incremental: Bool
        var files, directories, symbolicLinks, payloadsCopied, payloadsReused: Int
        var bytesCopied, bytesTotal: Int64
        var seconds: Double
    }

    struct Restored: Encodable {
        var device, keychain: String
        var domains, appsNotInstalled, groupsNotPresent, skippedPaths: [String]
        var restoredFiles: Int
        var restoredBytes: Int64
        var problems: [Problem]
        var clean: Bool
    }

    /// The keychain outcome in a few words (also the JSON value).
    static func keychainText(_ outcome: KeychainRestoreOutcome?) -> String {
        switch outcome {
        case nil: return "not restored"
        case .restored(let summary): return "restored \(summary.imported) items (\(summary.replaced) replaced, \(summary.skipped) device-only left out)"
        case .notInBackup: return "not in the backup"
        case .skippedOnAnotherDevice: return "left out: a backup without a password restores the keychain only on its own device"
        case .damaged(let problem): return "damaged, not restored: \(problem)"
        case .unreadableFormat(let message): return "not readable here (\(message))"
        }
    }

    /// Files, directories, links and bytes per domain.
    static func domains(_ reader: BackupReader) -> [Domain] {
        var byName: [String: Domain] = [:]
        for record in reader.records {
            var entry = byName[record.domain] ?? Domain(domain: record.domain)
            switch record.kind {
            case .file:
                entry.files += 1
                entry.bytes += record.size
            case .directory: entry.directories += 1
            case .symbolicLink: entry.symbolicLinks += 1
            }
            byName[record.domain] = entry
        }
        return byName.values.sorted { $0.domain < $1.domain }
    }
}

extension BackupJSON.Device {
    init(_ device: BackupDeviceInfo) {
        self.init(udid: device.udid, name: device.deviceName, productType: device.productType,
                  productVersion: device.productVersion, buildVersion: device.buildVersion, serialNumber: device.serialNumber)
    }
}

extension BackupJSON.Summary {
    init(_ info: BackupInfo, path: URL) {
        self.init(path: path.path, device: BackupJSON.Device(info.device), date: info.date, snapshotState: info.snapshotState,
                  encrypted: info.isEncrypted, writtenBySandbox: info.writtenBySandbox,
                  hasManifestPlist: info.hasManifestPlist, hasStatusPlist: info.hasStatusPlist,
                  fullBackup: info.isFullBackup, applications: info.applications.map(\.bundleIdentifier).sorted())
    }
}

extension BackupJSON.Problem {
    init(_ problem: BackupPayloadProblem) {
        self.init(domain: problem.domain, relativePath: problem.relativePath, fileID: problem.fileID,
                  kind: problem.kind.rawValue, message: problem.message)
    }
}

extension BackupJSON.Verification {
    init(_ report: BackupVerificationReport, path: String) {
        self.init(path: path, verifiedFiles: report.verifiedFiles, uncheckedDigests: report.uncheckedDigests,
                  verifiedBytes: report.verifiedBytes, problems: report.problems.map(BackupJSON.Problem.init), clean: report.isClean)
    }
}

extension BackupJSON.Created {
    init(_ summary: BackupSummary) {
        self.init(path: summary.directory.path, encrypted: summary.isEncrypted, incremental: summary.isIncremental,
                  files: summary.files, directories: summary.directories, symbolicLinks: summary.symbolicLinks,
                  payloadsCopied: summary.payloadsCopied, payloadsReused: summary.payloadsReused,
                  bytesCopied: summary.bytesCopied, bytesTotal: summary.bytesTotal, seconds: summary.seconds)
    }
}

extension BackupJSON.Restored {
    init(_ report: DeviceRestoreReport, device: String) {
        self.init(device: device, keychain: BackupJSON.keychainText(report.keychain),
                  domains: report.domains, appsNotInstalled: report.appsNotInstalled,
                  groupsNotPresent: report.groupsNotPresent, skippedPaths: report.skippedPaths,
                  restoredFiles: report.restoredFiles, restoredBytes: report.restoredBytes,
                  problems: report.problems.map(BackupJSON.Problem.init), clean: report.isClean)
    }
}
