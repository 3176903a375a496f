import FileSystem
import Foundation

/// An app's home directory (its data container) with iOS's layout and
/// rules. Every file operation resolves beneath the root (see
/// `docs/STORAGE-RULES.md`): nothing the app names can reach outside, write
/// at the root, or change the bundle.
///
/// ```swift
/// let container = try AppContainer.create(at: root, bundleName: "Notes")
/// try container.writeAtomically(data, to: "Documents/note.txt")
/// ```
///
/// The value holds the root directory open; copies share it and the
/// ``bytesWritten`` counter.
public struct AppContainer: Sendable {
    /// The container root (`NSHomeDirectory()`).
    public let root: URL
    /// The app bundle: inside the container (`<Name>.app`) or elsewhere, as
    /// modern iOS keeps it; nil when the container has none.
    public let bundleURL: URL?
    /// The tunables this container was opened with.
    public let options: ContainerOptions

    let directory: ConfinedDirectory
    let counter: WriteCounter
    /// See ``bundleComponent``.
    private let bundleName: String?

    /// Creates the standard layout if missing (idempotent) and returns the
    /// container. With a `bundleName` and no `bundleURL`, an empty
    /// `<Name>.app` directory is made in the container for the bundle.
    public static func create(at root: URL, bundleName: String? = nil, bundleURL: URL? = nil,
                              options: ContainerOptions = .default) throws -> AppContainer {
        do { try FileSystemPaths.makeDirectories(atPath: root.path) }
        catch { throw ContainerError(error, path: root.path, "create the container root") }
        let directory = try ConfinedDirectory(openingAt: root, resolver: options.resolution, caseCheck: options.caseCheck)
        for entry in ContainerDirectory.layout {
            try makeLayoutDirectory(entry.relativePath, in: directory)
        }
        var bundle = bundleURL
        if bundle == nil, let bundleName {
            let name = bundleName.hasSuffix(".app") ? bundleName : bundleName + ".app"
            guard !name.contains("/"), name != ".app" else {
                throw ContainerError(.invalidPath, path: name, "a bundle name is a single path component")
            }
            try makeLayoutDirectory(name, in: directory)
            bundle = root.appendingPathComponent(name, isDirectory: true)
        }
        return AppContainer(root: root, bundleURL: bundle, options: options, directory: directory)
    }

    /// Opens an existing container cheaply (no layout creation); throws
    /// ``ContainerErrorCode/notFound`` if `root` is missing. Without a
    /// `bundleURL`, a `*.app` directory in the root is taken as the bundle.
    public init(existingAt root: URL, bundleURL: URL? = nil, options: ContainerOptions = .default) throws {
        let directory = try ConfinedDirectory(openingAt: root, resolver: options.resolution, caseCheck: options.caseCheck)
        var bundle = bundleURL
        if bundle == nil {
            // A root that cannot be listed is an error, not a container
            // without a bundle.
            let names: [String]
            do throws(FileSystemError) { names = try directory.root.descriptor.entries() } catch {
                throw ContainerError(error, path: root.path, "list the container to find its bundle")
            }
            if let name = names.filter({ $0.hasSuffix(".app") }).sorted().first {
                bundle = root.appendingPathComponent(name, isDirectory: true)
            }
        }
        self.init(root: root, bundleURL: bundle, options: options, directory: directory)
    }

    private init(root: URL, bundleURL: URL?, options: ContainerOptions, directory: ConfinedDirectory) {
        self.root = root
        self.bundleURL = bundleURL
        self.options = options
        self.directory = directory
        self.counter = WriteCounter.shared(for: root.standardizedFileURL.path)
        self.bundleName = Self.bundleComponent(of: bundleURL, in: root)
    }

    private static func makeLayoutDirectory(_ relativePath: String, in directory: ConfinedDirectory) throws {
        var parent: [String] = []
        for component in relativePath.split(separator: "/").map(String.init) {
            do throws(FileSystemError) {
                let fd = try directory.root.open(parent.joined(separator: "/"), .readOnly, options: .directory)
                defer { fd.closeQuietly() }
                do { try fd.makeDirectory(component) } catch { if !error.isExists { throw error } }
            } catch {
                throw ContainerError(error, path: relativePath, "create the layout")
            }
            parent.append(component)
        }
    }

    /// The URL of a standard directory. ``ContainerDirectory/bundle`` gives
    /// ``bundleURL``, or the root when there is no bundle.
    public func url(for directory: ContainerDirectory) -> URL {
        if directory == .bundle { return bundleURL ?? root }
        if directory == .home { return root }
        return root.appendingPathComponent(directory.relativePath, isDirectory: true)
    }

    /// The URL of a container-relative path (not resolved; for display and
    /// for handing to code outside the container API).
    public func url(forRelativePath path: String) -> URL {
        path.isEmpty ? root : root.appendingPathComponent(path)
    }

    /// Total bytes written through this container's API (all copies sharing
    /// the root share it), so write amplification can be measured.
    public var bytesWritten: UInt64 { counter.value }

    /// The bundle's name inside the container (`Notes.app`) when it is
    /// there: every write checks it.
    var bundleComponent: String? { bundleName }

    /// Derived once: with Foundation's URL standardization it cost a few
    /// microseconds on every write, a noticeable part of a re-fetch.
    private static func bundleComponent(of bundleURL: URL?, in root: URL) -> String? {
        guard let bundleURL else { return nil }
        let parent = bundleURL.deletingLastPathComponent().standardizedFileURL.path
        return parent == root.standardizedFileURL.path ? bundleURL.lastPathComponent : nil
    }
}
