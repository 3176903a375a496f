import Foundation
@testable import StorageAudit
import StorageAuditReport
import TestSupport
import Testing

/// Audits made by hand for the report's tests (the auditor's own tests
/// cover how audits are measured), and the report written to a file.
enum ReportFixture {
    /// A file name as the walk reports one that is not UTF-8: each bad byte
    /// decoded as U+FFFD.
    static let invalidUTF8Name = String(decoding: [0x66, 0xFF, 0xFE, 0x6F, 0x2E, 0x62, 0x69, 0x6E] as [UInt8], as: UTF8.self)

    /// Paths that try to break out of their markup, with what the page must
    /// show for each (XML 1.0's forbidden characters as visible stand-ins).
    static let hostilePaths: [(path: String, shown: String)] = [
        ("Library/Caches/<script>alert(\"x\")</script>.png", "Library/Caches/<script>alert(\"x\")</script>.png"),
        ("Documents/R&D;x &amp; &#60; ]]> --> <!-- 'q'", "Documents/R&D;x &amp; &#60; ]]> --> <!-- 'q'"),
        ("Documents/\" onmouseover=\"alert(1)\" x=\"", "Documents/\" onmouseover=\"alert(1)\" x=\""),
        ("tmp/bell\u{7}tab\tdel\u{7F}nonchar\u{FFFE}", "tmp/bell\u{2407}tab\u{2409}del\u{2421}nonchar\u{FFFD}"),
        ("Documents/" + invalidUTF8Name, "Documents/" + invalidUTF8Name),
    ]

    static func usage(_ allocated: UInt64, backup: UInt64 = 0, purgeable: UInt64 = 0) -> StorageUsage {
        var usage = StorageUsage()
        usage.allocatedBytes = allocated
        usage.apparentBytes = allocated - allocated / 8
        usage.files = Int(allocated / 4096) + 1
        usage.backupBytes = backup
        usage.purgeableBytes = purgeable
        usage.keptByUpdateBytes = allocated - purgeable
        return usage
    }

    /// An app with these allocated bytes per category (in ``StorageCategory`` order).
    static func app(_ bundleID: String, _ bytes: [StorageCategory: UInt64], findings: [StorageFinding] = [],
                    notes: [String] = []) -> AppStorageAudit {
        let categories = StorageCategory.allCases.map { category in
            let allocated = bytes[category] ?? 0
            let backedUp: Bool = [.documents, .library, .applicationSupport].contains(category)
            let purged: Bool = [.caches, .tmp].contains(category)
            return CategoryUsage(category: category, usage: usage(allocated, backup: backedUp ? allocated : 0,
                                                                  purgeable: purged ? allocated : 0))
        }
        let total = categories.reduce(into: StorageUsage()) { $0.add($1.usage) }
        return AppStorageAudit(bundleID: bundleID, categories: categories, total: total, keychainItems: 2,
                               cacheManifest: CacheManifestSummary(path: "Library/Application Support/CacheManifest.sqlite",
                                                                   bytes: 24_576, entries: 3),
                               stores: [StoreFile(path: "Library/Application Support/Possessions.sqlite", bytes: 40_960)],
                               findings: findings, notes: notes)
    }

    /// Three ordinary apps of very different sizes, with findings.
    static var ordinary: DeviceStorageAudit {
        DeviceStorageAudit(device: "Demo iPhone", apps: [
            app("com.example.possessions", [.bundle: 2_400_000, .documents: 9_000_000, .library: 300_000, .applicationSupport: 5_000_000,
                                            .caches: 12_000_000, .tmp: 800_000, .home: 4096],
                findings: [StorageFinding(.downloadableInDocuments, path: "Documents/movie.mp4", bytes: 8_000_000,
                                          detail: "the cache manifest lists it"),
                           StorageFinding(.largeBackedUpApplicationSupport, path: "Library/Application Support/Maps.db",
                                          bytes: 4_800_000, detail: "4.6 MB backed up without the do-not-back-up flag")]),
            app("com.example.notes", [.bundle: 1_200_000, .documents: 600_000, .library: 90_000, .caches: 1_500_000]),
            app("com.example.tiny", [.bundle: 40_000, .library: 8192]),
        ])
    }

    /// Apps and a device whose names and paths are hostile.
    static var hostile: DeviceStorageAudit {
        let findings = hostilePaths.map { StorageFinding(.unknownCacheFile, path: $0.path, bytes: 4096, detail: "detail <i>for</i> \($0.path)") }
        return DeviceStorageAudit(device: "Evil & <b>Co</b> 'phone' \"x\"", apps: [
            app("com.evil\"><script>alert(1)</script>", [.bundle: 3_000_000, .caches: 2_000_000], findings: findings,
                notes: ["note with <tags> & ampersands"]),
            app("com.example.plain", [.bundle: 500_000, .documents: 100_000]),
        ])
    }

    /// Writes the page of `audit` into `directory` and returns its file.
    static func write(_ audit: DeviceStorageAudit, in directory: TemporaryDirectory, name: String = "report.html") throws -> URL {
        try directory.write(Data(StorageReportPage(audit: audit).render().utf8), to: name)
    }
}
