import Container
import Foundation

/// A domain file inside an app (or app-group) container, reached only
/// through the container's confined file API: reads and atomic replaces
/// resolve beneath the container root, every byte written is counted in
/// ``AppContainer/bytesWritten``, and the lock is the container's
/// `.<name>.lock` file, the one ``FileDomainStorage`` also takes, so an app
/// and a tool writing the file by path exclude each other.
struct ContainerDomainStorage: DomainStorage {
    let container: AppContainer
    /// The container-relative path, `Library/Preferences/<domain>.plist`.
    let relativePath: String
    /// The absolute path: the key that shares one domain per process with
    /// stores that name the same file by path.
    let path: String

    init(container: AppContainer, relativePath: String) {
        self.container = container
        self.relativePath = relativePath
        path = container.root.standardizedFileURL.appendingPathComponent(relativePath).path
    }

    func read() throws -> Data? {
        do {
            return try container.read(relativePath)
        } catch let error as ContainerError where error.code == .notFound {
            return nil
        } catch {
            throw Self.failure("read the domain", error, path)
        }
    }

    func write(_ data: Data, durability: PreferencesDurability) throws {
        // `atomic` is the rename alone, as cfprefsd and Foundation's
        // `.atomic` write; `durable` adds the file and directory flushes.
        let level = durability.fileSystemDurability
        do {
            try container.writeAtomically(data, to: relativePath, durability: level)
        } catch let error as ContainerError where error.code == .notFound {
            // Library/Preferences was removed (or never made in an opened
            // container): the first write of a domain creates it.
            try createParent()
            do { try container.writeAtomically(data, to: relativePath, durability: level) }
            catch { throw Self.failure("save the domain", error, path) }
        } catch {
            throw Self.failure("save the domain", error, path)
        }
    }

    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        do {
            return try container.withExclusiveLock(on: relativePath, body)
        } catch let error as ContainerError where error.code == .notFound {
            try createParent()
            do { return try container.withExclusiveLock(on: relativePath, body) }
            catch let error as ContainerError { throw Self.failure("lock the domain", error, path) }
        } catch let error as ContainerError {
            throw Self.failure("lock the domain", error, path)
        }
    }

    func removeStaleTemporaries() throws {
        let parent = (relativePath as NSString).deletingLastPathComponent
        do {
            try container.removeStaleTemporaries(in: parent)
        } catch let error as ContainerError where error.code == .notFound {
            return
        } catch {
            throw Self.failure("remove stale temporary files", error, path)
        }
    }

    private func createParent() throws {
        let parent = (relativePath as NSString).deletingLastPathComponent
        do { try container.createDirectory(parent) } catch { throw Self.failure("create the directory", error, path) }
    }

    private static func failure(_ operation: String, _ error: any Error, _ path: String) -> PreferencesError {
        PreferencesError(.storageFailed, path: path, "cannot \(operation)").caused(by: error)
    }
}
