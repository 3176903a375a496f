import FileSystem
import Foundation
import PropertyList

/// Builds the Possessions app's bundle (`Possessions.app`) in a staging
/// directory, as Xcode would hand it to the installer: a binary Info.plist,
/// an executable, a Settings bundle with default values, and a localized
/// strings table.
enum PossessionsBundle {
    static let name = "Possessions"

    /// Writes the bundle of `version` under `directory` and returns its URL.
    static func make(version: String, in directory: URL) throws -> URL {
        let bundle = directory.appendingPathComponent("v\(version)", isDirectory: true)
            .appendingPathComponent(name + ".app", isDirectory: true)
        try FileSystemPaths.removeTree(atPath: bundle.path)
        try FileSystemPaths.makeDirectories(atPath: bundle.appendingPathComponent("Settings.bundle").path)
        try FileSystemPaths.makeDirectories(atPath: bundle.appendingPathComponent("en.lproj").path)

        let info: PropertyListValue = [
            "CFBundleIdentifier": .string(PossessionsApp.bundleID),
            "CFBundleName": .string(name),
            "CFBundleDisplayName": .string(name),
            "CFBundleExecutable": .string(name),
            "CFBundleVersion": .string(version),
            "CFBundleShortVersionString": .string(version),
            "CFBundleDevelopmentRegion": "en",
            "CFBundlePackageType": "APPL",
            "UIRequiresPersistentWiFi": false,
        ]
        try write(info.encoded(as: .binary), to: bundle.appendingPathComponent("Info.plist"))

        let settings: PropertyListValue = [
            "PreferenceSpecifiers": [
                ["Type": "PSToggleSwitchSpecifier", "Key": .string(PossessionsApp.termsKey), "DefaultValue": false],
                ["Type": "PSTextFieldSpecifier", "Key": "Currency", "DefaultValue": "USD"],
            ],
        ]
        try write(settings.encoded(as: .xml), to: bundle.appendingPathComponent("Settings.bundle/Root.plist"))
        try write(Data("\"Terms\" = \"Terms of Service (version \(version))\";\n".utf8),
                  to: bundle.appendingPathComponent("en.lproj/Localizable.strings"))

        let executable = bundle.appendingPathComponent(name)
        try write(Data(probeScript.utf8), to: executable, permissions: 0o755)
        return bundle
    }

    /// Writes one file of the staged bundle. No flush: a staging copy
    /// lost to a power cut is simply made again.
    private static func write(_ data: Data, to url: URL, permissions: UInt32 = 0o644) throws {
        try FileSystemPaths.writeAtomically(data, toPath: url.path,
                                            options: AtomicWriteOptions(durability: .none, permissions: permissions))
    }

    /// The app's executable: when launched as a process it tries to write
    /// outside its container, into its bundle and at its container root, and
    /// records which writes the system allowed in `Documents/sandbox-report.txt`,
    /// where it may write. With `--stay-running` it just runs until terminated.
    static let probeScript = """
    #!/bin/sh
    # Possessions, launched by `sandbox launch`: report which writes the sandbox allows.
    if [ "$1" = "--stay-running" ]; then
        trap 'exit 0' TERM
        while :; do sleep 0.1; done
    fi
    report="$HOME/\(PossessionsApp.probeReportPath)"
    : > "$report"
    probe() { if (echo probe > "$2") 2>/dev/null; then echo "$1: allowed" >> "$report"; else echo "$1: denied" >> "$report"; fi; }
    probe "write outside the container" "$SANDBOX_CONTAINER/../escaped.txt"
    probe "write into the bundle" "$SANDBOX_BUNDLE/tampered.txt"
    probe "write at the container root" "$SANDBOX_CONTAINER/escaped.txt"
    """
}
