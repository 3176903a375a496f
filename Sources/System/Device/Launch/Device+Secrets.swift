import FileSystem
import Foundation
import SystemPackage

extension Device {
    /// Makes the device's secrets private again before an app runs:
    /// `Secrets/` and `Keychains/` 0700, `device-secret` 0600, links never
    /// followed. Apps run as an unprivileged user (``ProcessLaunchOptions/user``),
    /// so with these modes they cannot read, change or even reach the
    /// secret or the keychain database, whatever confinement the kernel
    /// offers; this also repairs a device made before those modes were set.
    func protectSecrets() throws {
        do {
            for (directory, mode) in [(layout.secrets, UInt32(0o700)), (layout.keychains, 0o700)] {
                guard let status = try FileSystemPaths.status(atPath: directory.path), status.isDirectory else { continue }
                if status.permissions != mode {
                    let fd = try FileDescriptor.openDirectory(atPath: directory.path, followLinks: false)
                    defer { fd.closeQuietly() }
                    try fd.setPermissions(mode)
                }
            }
            let secrets = try FileDescriptor.openDirectory(atPath: layout.secrets.path, followLinks: false)
            defer { secrets.closeQuietly() }
            try secrets.setPermissions(of: layout.secretFile.lastPathComponent, 0o600)
        } catch {
            throw DeviceError(error, path: layout.secrets.path, "protect the device secrets")
        }
    }
}
