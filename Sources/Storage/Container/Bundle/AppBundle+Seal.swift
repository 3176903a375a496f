import Crypto
import FileSystem
import SystemPackage
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
        let root = directory.root.descriptor
        do {
            try root.makeDirectoryIfMissing("_CodeSignature")
            let folder = try root.openDirectory("_CodeSignature")
            defer { folder.closeQuietly() }
            try folder.writeAtomically(data, to: "CodeResources",
                                       options: AtomicWriteOptions(durability: .full, permissions: 0o644))
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
            throw ContainerError(.corrupt, path: Self.sealPath, "the seal is not a property list").caused(by: error)
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

    /// Every file and link below the bundle except the seal's folder. The
    /// walk never follows a link, and a file swapped between the scan and
    /// its read is an error, not hashed in place of the one seen.
    func manifest() throws -> [String: ManifestEntry] {
        var result: [String: ManifestEntry] = [:]
        do {
            try directory.root.descriptor.walkTree { entry, parent throws(FileSystemError) in
                if entry.path == "_CodeSignature" { return .skip }
                if entry.status.isSymbolicLink {
                    result[entry.path] = .link(try parent.readLink(entry.name))
                } else if entry.status.isRegularFile {
                    let fd = try parent.openSeen(entry.name, as: entry.status)
                    defer { fd.closeQuietly() }
                    result[entry.path] = .file(try Self.sha256(fd))
                }
                return .descend
            }
        } catch {
            throw ContainerError(error, path: "", "hash the bundle")
        }
        return result
    }

    private static func sha256(_ fd: FileDescriptor) throws(FileSystemError) -> Data {
        var hasher = SHA256()
        let chunk = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        while true {
            let count = try fd.readFully(into: buffer, at: offset)
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += UInt64(count)
            if count < chunk { break }
        }
        return Data(hasher.finalize())
    }
}
