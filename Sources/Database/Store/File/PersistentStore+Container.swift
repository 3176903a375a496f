import Container
import FileSystem
import Foundation

extension PersistentStore {
    /// Where Core Data's default container puts a store: `<name>.sqlite` in
    /// `Library/Application Support` (backed up; not purged).
    public static func defaultPath(named name: String, in container: AppContainer,
                                   directory: ContainerDirectory = .applicationSupport) -> String {
        container.url(for: directory).appendingPathComponent(name + ".sqlite").path
    }

    /// Opens the app's store named `name` in its container for reading and
    /// writing, creating it (and its directory, through the container) with
    /// the model's layout on first use, as `NSPersistentContainer` does.
    ///
    /// - Throws: ``StoreError``; a directory the container cannot create is
    ///   ``StoreErrorCode/io``.
    public static func openOrCreate(named name: String, in container: AppContainer, model: ObjectModel,
                                    directory: ContainerDirectory = .applicationSupport) throws(StoreError) -> PersistentStore {
        let path = defaultPath(named: name, in: container, directory: directory)
        do {
            try container.createDirectory(directory.relativePath)
        } catch {
            throw StoreError(.io, "cannot create the store's directory", path: path).caused(by: error)
        }
        if FileSystemPaths.isRegularFile(atPath: path) {
            return try open(atPath: path, model: model)
        }
        return try create(atPath: path, model: model)
    }
}
