// prefs-stress-writer: the "other process" of the Preferences and Keychain
// multi-process tests. Each subcommand does one job against a shared store
// and exits 0 on success; the tests spawn several at once. `fill-and-write`
// runs alone, on a small file system of its own (a private tmpfs).
import ArgumentParser
import CodedErrors
import Container
import FileSystem
import Foundation
import Keychain
import Preferences
import PropertyList
import TestSupport

struct StressWriter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefs-stress-writer",
        abstract: "Writes to a preferences domain or a keychain store, for multi-process tests.",
        subcommands: [SetKeys.self, FlushLoop.self, AddKeychainItems.self, FillAndWrite.self])
}

/// Sets `count` distinct keys `<prefix>-<n>`, synchronizing every `every` sets.
struct SetKeys: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set-keys")

    @OptionGroup var domain: DomainOptions
    @Option var prefix: String
    @Option var count: Int
    @Option(help: "Synchronize after this many sets (0: only at the end).") var every = 50

    func run() throws {
        let prefs = try domain.open()
        for index in 0..<count {
            prefs.set("\(prefix) value \(index)", forKey: "\(prefix)-\(index)")
            if every > 0, (index + 1) % every == 0 { try prefs.synchronize() }
        }
        try prefs.synchronize()
    }
}

/// Rewrites every key `k-<n>` (n < keys) with the generation number, over
/// and over, printing "ready" after the first write; the crash test kills it.
struct FlushLoop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "flush-loop")

    @OptionGroup var domain: DomainOptions
    @Option var keys: Int
    @Option var padding = 200

    func run() throws {
        let prefs = try domain.open()
        let filler = String(repeating: "x", count: padding)
        var generation = 1
        while true {
            for index in 0..<keys { prefs.set("\(generation) \(filler)", forKey: "k-\(index)") }
            try prefs.synchronize()
            if generation == 1 { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
            generation += 1
        }
    }
}

/// Adds `count` generic passwords with service `<prefix>` and accounts 0…count-1.
struct AddKeychainItems: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keychain-add")

    @Option var store: String
    @Option(help: "The device secret as hex.") var secret: String
    @Option var app: String
    @Option var prefix: String
    @Option var count: Int

    func run() throws {
        guard let bytes = Data(hex: secret) else { throw ValidationError("--secret must be hex") }
        let keychain = try Keychain(storeDirectory: URL(fileURLWithPath: store, isDirectory: true),
                                    deviceSecret: try KeychainDeviceSecret(bytes))
        let client = keychain.client(for: KeychainEntitlements(applicationIdentifier: app))
        for index in 0..<count {
            try client.add(.genericPassword, KeychainAttributes(service: prefix, account: "\(index)"),
                           data: Data("\(prefix)-\(index)".utf8))
        }
    }
}

/// Writes a value, fills the file system the domain is on, then writes a
/// large value: with `flush(durability: .durable)`, and again through a
/// coalesced background flush. Prints, for the flush, the error's code, and
/// `diskFull` when it is `isDiskFull`, `ENOSPC` when a `FileSystemError` with
/// that errno is in its chain, `containerDiskFull` when a container error
/// with `.diskFull` is (`-` for each that is not); then `intact` if the file
/// still holds the first value alone, and for the background flush
/// `lastProblem` `diskFull` or `-`.
struct FillAndWrite: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fill-and-write")

    @OptionGroup var domain: DomainOptions
    @Option(help: "The directory to fill (the small file system's root).") var fill: String
    @Option var size = 200_000

    func run() throws {
        if let container = domain.container, !FileManager.default.fileExists(atPath: container) {
            _ = try AppContainer.create(at: URL(fileURLWithPath: container, isDirectory: true))
        }
        let prefs = try domain.open(coalescing: false)
        prefs.set("old", forKey: "k")
        try prefs.flush(durability: .durable)
        let file = try domain.plistFile()
        let old = try Data(contentsOf: file)
        DiskFiller.fill(fill)

        prefs.set(String(repeating: "x", count: size), forKey: "big")
        var words: [String]
        do {
            try prefs.flush(durability: .durable)
            words = ["written"]
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            words = [(error as? PreferencesError).map { "\($0.code)" } ?? "\(type(of: error))",
                     error.isDiskFull ? "diskFull" : "-",
                     error.firstCause(of: FileSystemError.self)?.errno == .noSpace ? "ENOSPC" : "-",
                     error.firstCause(of: ContainerError.self)?.code == .diskFull ? "containerDiskFull" : "-"]
        }
        words.append(try Data(contentsOf: file) == old ? "intact" : "changed")

        let background = try domain.open(coalescing: true)
        background.set(String(repeating: "y", count: size), forKey: "big")
        let deadline = Date().addingTimeInterval(10)
        while background.lastProblem == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        words.append(background.lastProblem?.isDiskFull == true ? "diskFull" : "-")
        print(words.joined(separator: " "))
    }
}

/// Which domain to open: an app's domain in its container (the normal
/// path, through the container's file API), or a plist file by path.
struct DomainOptions: ParsableArguments {
    @Option(help: "The app container whose Library/Preferences holds the domain.") var container: String?
    @Option(help: "The domain (bundle id) in --container.") var domain: String?
    @Option(help: "The domain's plist file, outside any container.") var file: String?
    @Flag(help: "Write only on synchronize (no coalesced background writes).") var manual = false

    func open() throws -> Preferences { try open(coalescing: !manual, shared: true) }

    /// Opens the domain, with coalesced background writes or without, and
    /// shared with the other stores of this process on it or not.
    func open(coalescing: Bool, shared: Bool = false) throws -> Preferences {
        let configuration = Preferences.Configuration(coalescingDelay: coalescing ? 0.01 : nil, sharesDomainsInProcess: shared)
        if let container {
            let app = try AppContainer(existingAt: URL(fileURLWithPath: container, isDirectory: true))
            return try Preferences(container: app, bundleIdentifier: domain, configuration: configuration)
        }
        guard let file else { throw ValidationError("give --container (and --domain) or --file") }
        return try Preferences(domainFile: URL(fileURLWithPath: file), configuration: configuration)
    }

    /// The domain's plist file.
    func plistFile() throws -> URL {
        if let container, let domain {
            return URL(fileURLWithPath: container).appendingPathComponent("Library/Preferences/\(domain).plist")
        }
        guard let file else { throw ValidationError("give --container and --domain, or --file") }
        return URL(fileURLWithPath: file)
    }
}

extension Data {
    init?(hex: String) {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next() {
            guard let low = iterator.next(), let h = Self.nibble(high), let l = Self.nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        self.init(bytes)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

StressWriter.main()
