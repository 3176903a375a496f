import Foundation
import PropertyList

/// Writes app bundles for the tests: `<Name>.app` with an `Info.plist`, an
/// executable and optional extra files and entitlements.
enum TestBundle {
    @discardableResult
    static func make(in directory: URL, name: String = "Notes", identifier: String = "com.example.notes",
                     version: String = "1", executable: String? = "Notes", files: [String: String] = [:],
                     info extra: [String: PropertyListValue] = [:], entitlements: PropertyListValue? = nil) throws -> URL {
        let bundle = directory.appendingPathComponent("\(name).app", isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var info: [String: PropertyListValue] = [
            "CFBundleIdentifier": .string(identifier), "CFBundleVersion": .string(version),
            "CFBundleShortVersionString": .string(version + ".0"), "CFBundleName": .string(name),
        ]
        if let executable { info["CFBundleExecutable"] = .string(executable) }
        for (key, value) in extra { info[key] = value }
        try PropertyListValue.dictionary(.init(uniqueKeysWithValues: info.sorted { $0.key < $1.key }))
            .encoded(as: .xml).write(to: bundle.appendingPathComponent("Info.plist"))
        if let executable {
            let url = bundle.appendingPathComponent(executable)
            try Data("#!/bin/sh\necho \(identifier) \(version)\n".utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        for (path, text) in files {
            let url = bundle.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        if let entitlements {
            try entitlements.encoded(as: .xml).write(to: bundle.appendingPathComponent("Entitlements.plist"))
        }
        return bundle
    }
}
