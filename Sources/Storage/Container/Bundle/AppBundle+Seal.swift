import Crypto
import Foundation
import OrderedCollections
import PropertyList

/// The bundle seal: `_CodeSignature/CodeResources`, an XML property list
/// whose `files2` dictionary maps every bundle-relative path to
/// `{hash2 = <SHA-256>}` (or `{symlink = <target>}` for links), the key
/// names Apple's code signing uses. Unlike Apple's, the manifest also covers
/// `Info.plist` and the executable, which a real signature binds elsewhere:
/// here the seal is the only guard.
extension AppBundle {
    /// Where the seal lives, relative to the bundle.
    public static let sealPath = "_CodeSignature/CodeResources"

    /// Hashes every file in the bundle and writes the seal, atomically.
    public func seal() throws {
        var files = OrderedDictionary<String, PropertyListValue>()
        for (path, entry) in try manifest().sorted(by: { $0.key < $1.key }) {
            files[path] = entry.propertyList
        }
        let value: PropertyListValue = .dictionary([
            "files2": .dictionary(files),
            "rules2": .dictionary([
                "^.*": .bool(true),
                "^_CodeSignature/": .dictionary(["omit": .bool(true), "weight": .real(20)]),
            ]),
        ])
        let data = try value.encoded(as: .xml)
        let root = directory.root.fd
        do throws(SystemFailure) {
            do throws(SystemFailure) { try Platform.makeDirectory(root, "_CodeSignature") } catch {
                if !Platform.isExists(error.errno) { throw error }
            }
            let folder = try Platform.openAt(root, "_CodeSignature", flags: Platform.directoryFlags | Platform.noFollow)
            defer { Platform.close(folder) }
            let temporary = ".sb-\(Platform.randomSuffix()).tmp"
            let fd = try Platform.openAt(folder, temporary, flags: Platform.writeOnly | Platform.create | Platform.exclusive)
            do throws(SystemFailure) {
                Platform.changeMode(fd, 0o644)
                try Platform.write(fd, data)
                try Platform.sync(fd)
                Platform.close(fd)
                try Platform.rename(folder, temporary, folder, "CodeResources", replace: true)
                try Platform.sync(folder)
            } catch {
                try? Platform.unlink(folder, temporary, directory: false)
                throw error
            }
        } catch {
            throw ContainerError(error, path: Self.sealPath, "write the seal")
        }
    }

    /// Checks the bundle against its seal.
    public func verifySeal() throws -> BundleSealStatus {
        guard let report = try sealReport() else { return .unsealed }
        return report.isValid ? .valid : .modified(report.allPaths)
    }

    /// The files modified, added and removed since the bundle was sealed, or
    /// nil when it is not sealed.
    public func sealReport() throws -> BundleSealReport? {
        let data: Data
        do { data = try contents(ofRelativePath: Self.sealPath) } catch let error as ContainerError where error.code == .notFound {
            return nil
        }
        let sealed: OrderedDictionary<String, PropertyListValue>
        do {
            guard let files = try PropertyListValue(data: data)["files2"]?.dictionaryValue else {
                throw ContainerError(.corrupt, path: Self.sealPath, "the seal has no files2 dictionary")
            }
            sealed = files
        } catch let error as ContainerError {
            throw error
        } catch {
            throw ContainerError(.corrupt, path: Self.sealPath, "the seal is not a property list: \(error)")
        }
        let current = try manifest()
        var report = BundleSealReport(modified: [], added: [], removed: [])
        for (path, entry) in current {
            if let expected = sealed[path] {
                if expected != entry.propertyList { report.modified.append(path) }
            } else {
                report.added.append(path)
            }
        }
        report.removed = sealed.keys.filter { current[$0] == nil }
        report.modified.sort()
        report.added.sort()
        report.removed.sort()
        return report
    }

    // MARK: The manifest

    enum ManifestEntry: Equatable {
        case file(Data)
        case link(String)

        var propertyList: PropertyListValue {
            switch self {
            case .file(let hash): .dictionary(["hash2": .data(hash)])
            case .link(let target): .dictionary(["symlink": .string(target)])
            }
        }
    }

    /// Every file and link below the bundle except the seal's folder.
    func manifest() throws -> [String: ManifestEntry] {
        var result: [String: ManifestEntry] = [:]
        do {
            try walk(directory.root.fd, prefix: "", into: &result)
        } catch {
            throw ContainerError(error, path: "", "hash the bundle")
        }
        return result
    }

    private func walk(_ dir: Platform.Descriptor, prefix: String, into result: inout [String: ManifestEntry]) throws(SystemFailure) {
        for name in try Platform.listDirectory(dir) {
            let path = prefix.isEmpty ? name : prefix + "/" + name
            if prefix.isEmpty && name == "_CodeSignature" { continue }
            let info = try Platform.stat(dir, name)
            if info.isSymbolicLink {
                result[path] = .link(try Platform.readLink(dir, name))
            } else if info.isDirectory {
                let child = try Platform.openAt(dir, name, flags: Platform.directoryFlags | Platform.noFollow)
                defer { Platform.close(child) }
                try walk(child, prefix: path, into: &result)
            } else if info.isRegularFile {
                let fd = try Platform.openAt(dir, name, flags: Platform.readOnly | Platform.noFollow)
                defer { Platform.close(fd) }
                result[path] = .file(try Self.sha256(fd))
            }
        }
    }

    private static func sha256(_ fd: Platform.Descriptor) throws(SystemFailure) -> Data {
        var hasher = SHA256()
        let chunk = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        while true {
            let count = try Platform.read(fd, into: buffer, at: offset)
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += UInt64(count)
            if count < chunk { break }
        }
        return Data(hasher.finalize())
    }
}
