import CloudBackup
import CloudProtocol
import CloudService
import Device
import Foundation
import Keychain
import Logging
import TestSupport

/// An embedded iCloud backup service on loopback, in-process, and devices
/// that sign in to it.
public final class CloudFixture: @unchecked Sendable {
    public let temp: TemporaryDirectory
    public let server: CloudServer
    public static let adminToken = "operator-token"
    /// Cheap key derivation for tests (the default is 210,000 rounds).
    public static let rounds = 10

    public init(_ label: String = "cloud", quota: Int64 = CloudLimits.defaultQuotaBytes, sessionLifetime: Int64 = 3600,
                storage: CloudStorageConfiguration? = nil, accountCreation: AccountCreationPolicy = .open(perMinute: 10_000),
                limits: ConnectionLimits = ConnectionLimits()) async throws {
        temp = try TemporaryDirectory(label)
        var logger = Logger(label: "sandbox-cloud-test")
        logger.logLevel = .critical
        let service = try await CloudService.open(storage ?? .embedded(directory: temp.path("service")), defaultQuota: quota,
                                                  sessionLifetime: sessionLifetime, adminToken: Self.adminToken,
                                                  accountCreation: accountCreation, logger: logger)
        server = try await CloudServer.start(service, gcInterval: nil, limits: limits)
    }

    public var url: String { server.baseURL }
    public var ledger: Ledger { server.service.ledger }

    public func stop() async { await server.stop() }

    /// A device named `name` with the Notes app installed.
    public func device(_ name: String, apps: [String] = ["com.example.notes"]) throws -> Device {
        let device = try Device.create(at: temp.url.appendingPathComponent("devices/\(name)"), name: name)
        for app in apps {
            _ = try device.install(bundleAt: try Self.bundle(in: temp.url.appendingPathComponent("bundles/\(name)-\(app)"), identifier: app))
        }
        return device
    }

    /// Signs `device` in to `account` (creating the account when `create`).
    public func signIn(_ device: Device, account: String, password: String = "correct horse", create: Bool) async throws -> CloudAccount {
        try await CloudAccount.signIn(device: device, service: url, account: account, password: password, create: create, rounds: Self.rounds)
    }

    /// A minimal app bundle: `<Name>.app` with an Info.plist and an executable.
    public static func bundle(in directory: URL, identifier: String) throws -> URL {
        let name = identifier.split(separator: ".").last.map(String.init) ?? "App"
        let bundle = directory.appendingPathComponent("\(name).app", isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let info = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>CFBundleExecutable</key><string>\(name)</string>
            <key>CFBundleIdentifier</key><string>\(identifier)</string>
            <key>CFBundleName</key><string>\(name)</string>
            <key>CFBundleShortVersionString</key><string>1.0</string>
            <key>CFBundleVersion</key><string>1</string>
            </dict></plist>
            """
        try Data(info.utf8).write(to: bundle.appendingPathComponent("Info.plist"))
        try Data("#!/bin/sh\n".utf8).write(to: bundle.appendingPathComponent(name))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bundle.appendingPathComponent(name).path)
        return bundle
    }

    /// `count` bytes from a seeded generator.
    public static func bytes(_ count: Int, seed: UInt64) -> Data {
        var generator = SeededGenerator(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes)
    }
}
