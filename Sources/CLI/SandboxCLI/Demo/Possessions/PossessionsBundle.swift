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
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: bundle.path) { try fileManager.removeItem(at: bundle) }
        try fileManager.createDirectory(at: bundle.appendingPathComponent("Settings.bundle"), withIntermediateDirectories: true)
        try fileManager.createDirectory(at: bundle.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)

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
        try info.encoded(as: .binary).write(to: bundle.appendingPathComponent("Info.plist"))

        let settings: PropertyListValue = [
            "PreferenceSpecifiers": [
                ["Type": "PSToggleSwitchSpecifier", "Key": .string(PossessionsApp.termsKey), "DefaultValue": false],
                ["Type": "PSTextFieldSpecifier", "Key": "Currency", "DefaultValue": "USD"],
            ],
        ]
        try settings.encoded(as: .xml).write(to: bundle.appendingPathComponent("Settings.bundle/Root.plist"))
        try Data("\"Terms\" = \"Terms of Service (version \(version))\";\n".utf8)
            .write(to: bundle.appendingPathComponent("en.lproj/Localizable.strings"))

        let executable = bundle.appendingPathComponent(name)
        try Data(probeScript.utf8).write(to: executable)
        try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        return bundle
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
