// swift-tools-version:6.1
import PackageDescription

// Layers, lowest first; a module depends only on modules in layers below
// it, and the folders under Sources/ are these layers:
//   Platform:  FileSystem (every file-system call), LaunchCore (Landlock and
//              process control, no Foundation; on CodedErrors),
//              sandbox-confine, CodedErrors (the one error shape of most
//              modules' errors; no dependencies)
//   Formats:   PropertyList, KeyedArchive
//   Storage:   Container, Keychain, Preferences
//   Database:  PredicateFormat (NSPredicate's format language, to SQL and in
//              memory), Store (Core Data's SQLite layout, contexts, fetched
//              results)
//   Backup:    MobileBackup (the format; no Container, no Keychain)
//   Network:   NetworkConditions (the device's radio conditions; no NIO),
//              HTTPServing (a Hummingbird application started and
//              listening, for ContentServer and CloudService)
//   System:    Launch, Device
//   Cloud:     CloudProtocol (wire types), CloudService (the iCloud backup
//              service), CloudBackup (the device side)
//   Audit:     StorageAudit (what each app costs the disk and the backup,
//              against the storage guidelines; no NIO), StorageAuditReport
//              (the audit as one HTML page, on Plot)
//   CLI:       SandboxCLI (the commands, a library so tests can reach them), sandbox (a thin main)
// The graph is drawn once, in docs/ARCHITECTURE.md.
let package = Package(
    name: "Sandbox",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "FileSystem", targets: ["FileSystem"]),
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "Keychain", targets: ["Keychain"]),
        .library(name: "Preferences", targets: ["Preferences"]),
        .library(name: "Container", targets: ["Container"]),
        .library(name: "PredicateFormat", targets: ["PredicateFormat"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "MobileBackup", targets: ["MobileBackup"]),
        .library(name: "NetworkConditions", targets: ["NetworkConditions"]),
        .library(name: "Launch", targets: ["Launch"]),
        .library(name: "Device", targets: ["Device"]),
        .library(name: "StorageAudit", targets: ["StorageAudit"]),
        .library(name: "StorageAuditReport", targets: ["StorageAuditReport"]),
        .executable(name: "sandbox", targets: ["sandbox"]),
        .executable(name: "sandbox-confine", targets: ["sandbox-confine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        .target(
            // The only code that makes file-system calls (and the codecs'
            // raw-memory calls): held directories, atomic replace, locks,
            // tree walks, extended attributes.
            name: "FileSystem",
            dependencies: [.product(name: "SystemPackage", package: "swift-system")],
            path: "Sources/Platform/FileSystem"
        ),
        .target(
            // `CodedError<Code>`: code, message and the code's context (a
            // path by default), the error shape several modules share, each
            // binding it to its own `Code` enum. Depends on nothing, not even
            // Foundation, so LaunchCore may use it.
            name: "CodedErrors",
            path: "Sources/Platform/CodedErrors"
        ),
        .target(
            // Names from a container or a bundle made safe for a terminal
            // (controls, bidi marks): every text output uses it. Depends on
            // nothing.
            name: "TerminalText",
            path: "Sources/Platform/TerminalText"
        ),
        .target(
            name: "PropertyList",
            dependencies: ["FileSystem", .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Sources/Formats/PropertyList"
        ),
        .target(
            name: "KeyedArchive",
            dependencies: ["FileSystem", "PropertyList", .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Sources/Formats/KeyedArchive"
        ),
        .target(
            name: "Keychain",
            dependencies: [
                "CodedErrors",
                "FileSystem",
                "PropertyList",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/Storage/Keychain"
        ),
        .target(
            name: "Preferences",
            dependencies: [
                "CodedErrors",
                "FileSystem",
                "PropertyList",
                "Container",
                "KeyedArchive",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            path: "Sources/Storage/Preferences"
        ),
        .target(
            name: "Container",
            dependencies: [
                "CodedErrors",
                "FileSystem",
                "PropertyList",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
                // `FilePath` for the typed search-path accessors (Foundation
                // on Linux has no `System` module).
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Sources/Storage/Container"
        ),
        .systemLibrary(
            // zlib's raw inflate and deflate, for the model Core Data caches
            // in a store (Z_MODELCACHE). Debian: zlib1g-dev.
            name: "CZlib",
            path: "Sources/Platform/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            // NSPredicate's format language: parsed by hand, evaluated in
            // memory, compiled to SQL with Unicode folding functions.
            name: "PredicateFormat",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/Database/PredicateFormat"
        ),
        .target(
            // Core Data's SQLite layout: models, stores, contexts, fetch
            // requests, the fetched-results controller, migration.
            name: "Store",
            dependencies: [
                "CodedErrors", "FileSystem", "PropertyList", "KeyedArchive", "Container", "PredicateFormat", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Sources/Database/Store"
        ),
        .target(
            // The backup format only: it reads and writes through the
            // directory handles it is given (FileSystem), and knows neither
            // containers nor keychains (Device joins them).
            name: "MobileBackup",
            dependencies: [
                "CodedErrors",
                "PropertyList",
                "KeyedArchive",
                "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/Backup/MobileBackup"
        ),
        .target(
            // The device's radio conditions (Wi-Fi, cellular, airplane mode,
            // lock, the Wi-Fi power timer) and the radio power model: pure
            // values, no NIO, so Device can depend on them.
            name: "NetworkConditions",
            dependencies: ["PropertyList"],
            path: "Sources/Network/NetworkConditions"
        ),
        .target(
            // Landlock and the trampoline's body, without Foundation (so the
            // trampoline starts in milliseconds); re-exported by Launch.
            name: "LaunchCore",
            dependencies: ["CodedErrors"],
            path: "Sources/Platform/LaunchCore"
        ),
        .target(
            name: "Launch",
            dependencies: ["LaunchCore", "FileSystem", .product(name: "SystemPackage", package: "swift-system")],
            path: "Sources/System/Launch"
        ),
        .executableTarget(
            // The trampoline Launch spawns: confines itself, then execs the app.
            name: "sandbox-confine",
            dependencies: ["LaunchCore"],
            path: "Sources/Platform/sandbox-confine"
        ),
        .target(
            // The durable list of what an app downloaded into Caches (no
            // NIO, so the launch check needs no HTTP stack).
            name: "CacheManifest",
            dependencies: [
                "CodedErrors", "FileSystem", "Container",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Sources/Network/CacheManifest"
        ),
        .target(
            // Downloads on AsyncHTTPClient: retries, resume, batching, and
            // the cached resources recorded in the manifest. Not called
            // "Network": NIO, AsyncHTTPClient and Hummingbird test
            // `canImport(Network)` for Apple's Network.framework, and a
            // module of that name would be taken for it (and clash with it
            // on Apple platforms).
            name: "NetworkTransfers",
            dependencies: [
                "FileSystem", "Container", "CacheManifest", "NetworkConditions",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Sources/Network/NetworkTransfers"
        ),
        .target(
            // Starting a Hummingbird application and waiting until it
            // listens: the one way ContentServer and CloudService start.
            name: "HTTPServing",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Network/HTTPServing"
        ),
        .target(
            // A loopback content server (Hummingbird) with fault injection,
            // for the demo, the tests and the benchmark.
            name: "ContentServer",
            dependencies: [
                "HTTPServing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Network/ContentServer"
        ),
        .executableTarget(
            name: "content-server",
            dependencies: ["ContentServer", "FileSystem", "LaunchCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/Network/content-server"
        ),
        .target(
            name: "Device",
            dependencies: ["CodedErrors", "Container", "Preferences", "Keychain", "PropertyList", "KeyedArchive", "Launch",
                           "MobileBackup", "NetworkConditions", "FileSystem",
                           .product(name: "SystemPackage", package: "swift-system")],
            path: "Sources/System/Device"
        ),
        .target(
            // What the device and the iCloud backup service say to each
            // other (Codable, no NIO), and the chunk ids both agree on.
            name: "CloudProtocol",
            path: "Sources/Cloud/CloudProtocol"
        ),
        .target(
            // The iCloud backup service: accounts, device tokens, the quota
            // and deduplication in a transactional ledger (SQLite or
            // PostgreSQL), encrypted chunks in a chunk store (a directory or
            // OpenStack Swift), served by Hummingbird.
            name: "CloudService",
            dependencies: [
                "CloudProtocol", "HTTPServing", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Sources/Cloud/CloudService",
            // The API's description, served at /openapi.yaml and read by the
            // schemathesis fuzz test.
            resources: [.embedInCode("openapi.yaml")]
        ),
        .target(
            // The device side of iCloud backup: what goes into a snapshot
            // (MobileBackup's rules, through Device), chunking and
            // encryption with keys from the account password, upload with
            // resume, restore and export.
            name: "CloudBackup",
            dependencies: [
                "CloudProtocol", "CodedErrors", "Device", "MobileBackup", "NetworkConditions", "FileSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/Cloud/CloudBackup"
        ),
        .target(
            // The storage audit (issue 18): each app's bytes by category, on
            // disk and in a backup, and findings against the storage
            // guidelines. Reads through FileSystem's tree walk only; no NIO.
            name: "StorageAudit",
            dependencies: ["Device", "Container", "Keychain", "CacheManifest", "CloudProtocol", "CodedErrors",
                           "FileSystem", .product(name: "SystemPackage", package: "swift-system")],
            path: "Sources/Audit/StorageAudit"
        ),
        .target(
            // The audit as one self-contained HTML page (issue 18): the
            // stacked bars, a squarified treemap in inline SVG, the findings
            // and the iCloud cost. Plot writes the HTML; the layout is ours.
            name: "StorageAuditReport",
            dependencies: ["StorageAudit", .product(name: "Plot", package: "Plot")],
            path: "Sources/Audit/StorageAuditReport"
        ),
        .target(
            name: "SandboxCLI",
            dependencies: [
                "TerminalText",
                "PropertyList",
                "KeyedArchive",
                "Keychain",
                "Preferences",
                "Container",
                "Device",
                "Launch",
                "MobileBackup",
                "NetworkConditions",
                "FileSystem",
                "CacheManifest",
                "NetworkTransfers",
                "ContentServer",
                "Store",
                "PredicateFormat",
                "CloudProtocol",
                "CloudService",
                "CloudBackup",
                "StorageAudit",
                "StorageAuditReport",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            path: "Sources/CLI/SandboxCLI"
        ),
        .executableTarget(
            name: "sandbox",
            // sandbox-confine too, so `swift run sandbox launch …` builds the
            // trampoline `sandbox launch` spawns (found beside this program).
            dependencies: ["SandboxCLI", "sandbox-confine"],
            path: "Sources/CLI/sandbox",
            // A command is a short process: loading some twenty shared Swift
            // and Foundation libraries (their relocations and symbol look-ups)
            // was a third of its start (issue 14). The release build links
            // them in; Foundation's static archives name the libraries they
            // need only in their static modules, so they are named here.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims",
                              "-l_FoundationCollections",
                              // FoundationXML's (Store reads .xcdatamodel contents with XMLParser).
                              "-l_CFXMLInterface", "-lxml2"],
                             .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        .executableTarget(
            name: "plist-benchmark",
            dependencies: ["PropertyList"],
            path: "Benchmarks/PlistBenchmark"
        ),
        .executableTarget(
            name: "backup-benchmark",
            dependencies: ["MobileBackup", "Container", "FileSystem"],
            path: "Benchmarks/BackupBenchmark"
        ),
        .executableTarget(
            name: "archive-benchmark",
            dependencies: ["KeyedArchive", "PropertyList"],
            path: "Benchmarks/ArchiveBenchmark"
        ),
        .target(
            // Shared by the test targets only: temporary directories, running
            // other processes, finding this build's executables.
            name: "TestSupport",
            path: "Tests/Support/TestSupport"
        ),
        .testTarget(
            // The file-system module's guarantees: confinement, atomic
            // replace, locks, tree walks.
            name: "FileSystemTests",
            dependencies: ["FileSystem", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/FileSystemTests"
        ),
        .testTarget(
            name: "PropertyListTests",
            dependencies: ["TestSupport", "PropertyList"],
            path: "Tests/PropertyListTests"
        ),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: ["TestSupport", "KeyedArchive", "PropertyList", .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Tests/KeyedArchiveTests"
        ),
        .testTarget(
            name: "KeychainTests",
            dependencies: ["TestSupport", "Keychain", "PropertyList", "prefs-stress-writer"],
            path: "Tests/KeychainTests"
        ),
        .executableTarget(
            // Issue 13's FileSystem targets: the atomic replace against
            // Foundation and the bare system calls, confined lookups.
            name: "filesystem-benchmark",
            dependencies: ["FileSystem", .product(name: "SystemPackage", package: "swift-system")],
            path: "Benchmarks/FileSystemBenchmark"
        ),
        .executableTarget(
            name: "container-benchmark",
            dependencies: ["Container"],
            path: "Benchmarks/ContainerBenchmark"
        ),
        .executableTarget(
            name: "prefs-benchmark",
            dependencies: ["Preferences", "PropertyList", "Container"],
            path: "Benchmarks/PreferencesBenchmark"
        ),
        .executableTarget(
            // Spawned by PreferencesTests and KeychainTests as the "other process".
            name: "prefs-stress-writer",
            dependencies: ["Preferences", "Keychain", "PropertyList", "Container",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tests/Helpers/PrefsStressWriter"
        ),
        .testTarget(
            name: "PreferencesTests",
            dependencies: ["TestSupport", "Preferences", "FileSystem", "PropertyList", "Container", "prefs-stress-writer",
                           .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Tests/PreferencesTests"
        ),
        .executableTarget(
            // Spawned by ContainerTests: the writer killed mid-write, and the
            // process that runs under a file-size limit.
            name: "container-crash-writer",
            dependencies: ["Container"],
            path: "Tests/Helpers/ContainerCrashWriter"
        ),
        .testTarget(
            name: "ContainerTests",
            dependencies: ["TestSupport", "Container", "FileSystem", "PropertyList", "container-crash-writer",
                           .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/ContainerTests"
        ),
        .executableTarget(
            name: "launch-benchmark",
            dependencies: ["Launch"],
            path: "Benchmarks/LaunchBenchmark"
        ),
        .executableTarget(
            // The test app LaunchTests launches confined: it tries to escape.
            name: "escape-probe",
            path: "Tests/Helpers/EscapeProbe"
        ),
        .testTarget(
            name: "LaunchTests",
            dependencies: ["TestSupport", "Launch", "LaunchCore", "sandbox-confine", "escape-probe"],
            path: "Tests/LaunchTests"
        ),
        .executableTarget(
            name: "device-benchmark",
            dependencies: ["Device", "Container", "PropertyList"],
            path: "Benchmarks/DeviceBenchmark"
        ),
        .executableTarget(
            // Spawned by DeviceTests: updates and installs killed with SIGKILL.
            name: "device-crash-worker",
            dependencies: ["Device"],
            path: "Tests/Helpers/DeviceCrashWorker"
        ),
        .executableTarget(
            // Spawned by the backup swap-race tests: swaps a file or
            // directory for a link (or a hard link, or a directory) in a loop.
            name: "swap-racer",
            path: "Tests/Helpers/SwapRacer"
        ),
        .testTarget(
            name: "DeviceTests",
            dependencies: ["TestSupport", "Device", "Container", "Keychain", "Preferences", "PropertyList", "KeyedArchive", "device-crash-worker",
                           "Launch", "sandbox-confine", "escape-probe", "MobileBackup", "NetworkConditions", "FileSystem", "swap-racer",
                           .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/DeviceTests"
        ),
        .testTarget(
            name: "MobileBackupTests",
            // Device for the glue that joins backups to containers and keychains.
            dependencies: ["TestSupport", "MobileBackup", "KeyedArchive", "PropertyList", "Container", "Keychain", "Device", "FileSystem",
                           .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/MobileBackupTests"
        ),
        .executableTarget(
            // Issue 17: 50 devices backing up at once, an incremental backup
            // and a restore, beside restic on the same storage.
            name: "cloud-benchmark",
            dependencies: ["CloudBackup", "CloudService", "CloudProtocol", "Device", "FileSystem", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/CloudBenchmark"
        ),
        .executableTarget(
            // Issue 18: the storage audit of 1,000,000 files against du -s
            // and gdu on the same tree in the same run.
            name: "audit-benchmark",
            dependencies: ["StorageAudit", "Device", "Container", "CacheManifest", "FileSystem",
                           .product(name: "SystemPackage", package: "swift-system")],
            path: "Benchmarks/AuditBenchmark"
        ),
        .executableTarget(
            // Issue 16: fetch, controller and save on 1,000,000 rows against
            // hand-written GRDB.
            name: "store-benchmark",
            dependencies: ["Store", "PredicateFormat", "FileSystem", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/StoreBenchmark"
        ),
        .executableTarget(
            // Issue 15: re-fetch against curl --parallel, the launch check,
            // radio-on time coalesced against immediate.
            name: "network-benchmark",
            dependencies: ["NetworkTransfers", "CacheManifest", "NetworkConditions", "Container", "FileSystem"],
            path: "Benchmarks/NetworkBenchmark"
        ),
        .executableTarget(
            // Spawned by NetworkTests: a download killed with SIGKILL.
            name: "download-worker",
            dependencies: ["NetworkTransfers", "CacheManifest", "Container"],
            path: "Tests/Helpers/DownloadWorker"
        ),
        .testTarget(
            // Against real content-server processes on loopback.
            name: "NetworkTests",
            dependencies: ["TestSupport", "NetworkTransfers", "CacheManifest", "NetworkConditions", "ContentServer", "Container",
                           "content-server", "download-worker",
                           .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           // To craft a damaged manifest, as a hostile app would write it.
                           .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/NetworkTests"
        ),
        .testTarget(
            // The Wi-Fi timer, airplane mode and its alert, routes, the radio
            // power model, on a controlled clock.
            name: "NetworkConditionsTests",
            dependencies: ["TestSupport", "NetworkConditions", "PropertyList"],
            path: "Tests/NetworkConditionsTests"
        ),
        .testTarget(
            // The grammar corpus, folding, SQL against in-memory evaluation.
            name: "PredicateFormatTests",
            dependencies: ["TestSupport", "PredicateFormat", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/PredicateFormatTests"
        ),
        .executableTarget(
            // Spawned by StoreTests: a store migration killed with SIGKILL.
            name: "store-migration-worker",
            dependencies: ["Store"],
            path: "Tests/Helpers/StoreMigrationWorker"
        ),
        .testTarget(
            // Every Core Data fixture, contexts, the controller, migration.
            name: "StoreTests",
            dependencies: ["TestSupport", "Store", "PredicateFormat", "KeyedArchive", "PropertyList", "Container", "FileSystem",
                           "store-migration-worker",
                           .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/StoreTests"
        ),
        .testTarget(
            // The audit's totals against du, each finding's fixtures, and
            // the CLI's JSON byte for byte.
            name: "StorageAuditTests",
            dependencies: ["TestSupport", "StorageAudit", "Device", "Container", "CacheManifest", "Keychain", "Preferences", "PropertyList", "FileSystem",
                           "sandbox"],
            path: "Tests/StorageAuditTests"
        ),
        .testTarget(
            // The treemap's layout properties, and the HTML report: byte for
            // byte, escaped, valid for xmllint, drawn by headless Chromium.
            name: "StorageAuditReportTests",
            dependencies: ["TestSupport", "StorageAuditReport", "StorageAudit", "Device", "Container", "FileSystem", "sandbox"],
            path: "Tests/StorageAuditReportTests"
        ),
        .testTarget(
            name: "SandboxCLITests",
            // Depending on the executable makes `swift test` build `sandbox`,
            // which the end-to-end tests run as a subprocess.
            dependencies: ["TestSupport", "SandboxCLI", "sandbox", "sandbox-confine", "PropertyList", "KeyedArchive", "Keychain", "MobileBackup",
                           "NetworkConditions", "FileSystem",
                           // To damage a cache manifest behind its back, as a hostile app would.
                           .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/SandboxCLITests"
        ),
            .target(
            // Shared by the cloud test targets: an in-process service with
            // devices that sign in to it, and `sandbox cloud serve` as a
            // child process.
            name: "CloudTestSupport",
            dependencies: ["TestSupport", "CloudBackup", "CloudService", "CloudProtocol", "Device", "Keychain",
                           .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support/CloudTestSupport"
        ),
        .testTarget(
            // The iCloud backup service on its embedded default (a directory
            // and SQLite): accounts, authorization on every endpoint, the
            // quota under concurrent uploads from two server processes,
            // deduplication, the per-app toggle and garbage collection,
            // interrupted uploads, restore and export.
            name: "CloudTests",
            dependencies: ["TestSupport", "CloudTestSupport", "CloudProtocol", "CloudService", "CloudBackup", "Device", "MobileBackup", "Keychain",
                           "FileSystem", "sandbox",
                           .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Tests/CloudTests"
        ),
        .testTarget(
            // The same service on the distributed stack (a three-node
            // OpenStack Swift ring and PostgreSQL, started by
            // scripts/distributed-stack): heavy, so in a target of its own.
            name: "CloudDistributedTests",
            dependencies: ["TestSupport", "CloudTestSupport", "CloudProtocol", "CloudService", "CloudBackup", "Device", "FileSystem", "sandbox",
                           .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Tests/CloudDistributedTests"
        ),
    ]
)
