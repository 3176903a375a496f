import Device
import Foundation
import MobileBackup

/// The JSON shapes of `sandbox backup` output (keys sorted when printed).
enum BackupJSON {
    struct Device: Encodable {
        var udid, name, productType, productVersion, buildVersion, serialNumber: String
        init(_ device: BackupDeviceInfo) {
            udid = device.udid
            name = device.deviceName
            productType = device.productType
            productVersion = device.productVersion
            buildVersion = device.buildVersion
            serialNumber = device.serialNumber
        }
    }

    struct Summary: Encodable {
        var path: String
        var device: Device
        var date: Date?
        var encrypted: Bool
        var snapshotState: String?
        var fullBackup: Bool?
        var applications: [String]
        var writtenBySandbox: Bool
        var hasManifestPlist: Bool
        var hasStatusPlist: Bool
        init(_ info: BackupInfo, path: URL) {
            self.path = path.path
            device = Device(info.device)
            date = info.date
            encrypted = info.isEncrypted
            snapshotState = info.snapshotState
            fullBackup = info.isFullBackup
            applications = info.applications.map(\.bundleIdentifier).sorted()
            writtenBySandbox = info.writtenBySandbox
            hasManifestPlist = info.hasManifestPlist
            hasStatusPlist = info.hasStatusPlist
        }
    }

    struct Domain: Encodable {
        var domain: String
        var files = 0
        var directories = 0
        var symbolicLinks = 0
        var bytes: Int64 = 0
    }

    struct Info: Encodable {
        var backup: Summary
        /// Nil when the backup is encrypted and no password was given.
        var domains: [Domain]?
    }

    struct Problem: Encodable {
        var domain, relativePath, fileID, kind, message: String
        init(_ problem: BackupPayloadProblem) {
            domain = problem.domain
            relativePath = problem.relativePath
            fileID = problem.fileID
            kind = problem.kind.rawValue
            message = problem.message
        }
    }

    struct Verification: Encodable {
        var path: String
        var verifiedFiles: Int
        var verifiedBytes: Int64
        var uncheckedDigests: Int
        var problems: [Problem]
        var clean: Bool
        init(_ report: BackupVerificationReport, path: String) {
            self.path = path
            verifiedFiles = report.verifiedFiles
            verifiedBytes = report.verifiedBytes
            uncheckedDigests = report.uncheckedDigests
            problems = report.problems.map(Problem.init)
            clean = report.isClean
        }
    }

    struct Created: Encodable {
        var path: String
        var encrypted, incremental: Bool
        var files, directories, symbolicLinks, payloadsCopied, payloadsReused: Int
        var bytesCopied, bytesTotal: Int64
        var seconds: Double
        init(_ summary: BackupSummary) {
            path = summary.directory.path
            encrypted = summary.isEncrypted
            incremental = summary.isIncremental
            files = summary.files
            directories = summary.directories
            symbolicLinks = summary.symbolicLinks
            payloadsCopied = summary.payloadsCopied
            payloadsReused = summary.payloadsReused
            bytesCopied = summary.bytesCopied
            bytesTotal = summary.bytesTotal
            seconds = summary.seconds
        }
    }

    struct Restored: Encodable {
        var device: String
        var domains: [String]
        var restoredFiles: Int
        var restoredBytes: Int64
        var appsNotInstalled, groupsNotPresent, skippedPaths: [String]
        var keychain: String
        var problems: [Problem]
        var clean: Bool
        init(_ report: DeviceRestoreReport, device: String) {
            self.device = device
            domains = report.domains
            restoredFiles = report.restoredFiles
            restoredBytes = report.restoredBytes
            appsNotInstalled = report.appsNotInstalled
            groupsNotPresent = report.groupsNotPresent
            skippedPaths = report.skippedPaths
            keychain = keychainText(report.keychain)
            problems = report.problems.map(Problem.init)
            clean = report.isClean
        }
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
