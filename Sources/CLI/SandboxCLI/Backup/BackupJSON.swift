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
