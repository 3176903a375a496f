import Container
import FileSystem
import Foundation

/// The checks `install` and `update` make on a bundle before taking it.
enum BundleValidation {
    /// Opens and checks the bundle at `source`: a `.app` directory whose
    /// `Info.plist` has a well-formed identifier, a version and an
    /// executable name, and whose executable is a regular file.
    static func check(_ source: URL) throws -> AppBundle {
        guard source.pathExtension == "app" else {
            throw DeviceError(.invalidBundle, path: source.path, "an app bundle's name ends in .app")
        }
        guard ((try? FileSystemPaths.status(atPath: source.path, followLinks: true)) ?? nil)?.isDirectory == true else {
            throw DeviceError(.invalidBundle, path: source.path, "no bundle directory at \(source.path)")
        }
        let bundle: AppBundle
        do { bundle = try AppBundle(at: source) } catch let error as ContainerError {
            throw DeviceError(.invalidBundle, path: source.path, "invalid bundle \(source.lastPathComponent)").caused(by: error)
        }
        let info = bundle.info
        try checkIdentifier(info.identifier, in: source)
        guard !info.executable.contains("/"), info.executable != ".", info.executable != ".." else {
            throw DeviceError(.invalidBundle, bundleID: info.identifier, path: source.path,
                              "CFBundleExecutable '\(info.executable)' is not a file name")
        }
        let executable = source.appendingPathComponent(info.executable)
        guard FileSystemPaths.isRegularFile(atPath: executable.path) else {
            throw DeviceError(.invalidBundle, bundleID: info.identifier, path: executable.path,
                              "the bundle has no executable '\(info.executable)'")
        }
        return bundle
    }

    /// A bundle identifier is reverse-DNS: letters, digits, `-` and `.`,
    /// not starting or ending with a dot, no empty component.
    static func checkIdentifier(_ identifier: String, in source: URL) throws {
        let allowed = identifier.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E
        }
        let components = identifier.split(separator: ".", omittingEmptySubsequences: false)
        guard allowed, identifier.utf8.count <= 155, !components.contains(where: \.isEmpty) else {
            throw DeviceError(.invalidBundle, bundleID: identifier, path: source.path,
                              "'\(identifier)' is not a valid bundle identifier (letters, digits, '-' and '.')")
        }
    }
}
