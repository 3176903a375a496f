import FileSystem
import SystemPackage

/// The checks and listings the commands make on paths named on the command
/// line, answered by FileSystem. Links are followed, as a path a person
/// typed is followed.
enum PathChecks {
    /// Whether something is at `path`, links followed (a dangling link is
    /// nothing), as `FileManager.fileExists` answers.
    static func exists(_ path: String) -> Bool {
        ((try? FileSystemPaths.status(atPath: path, followLinks: true)) ?? nil) != nil
    }

    /// The names in the directory at `path` (a link to one is followed),
    /// bytewise sorted; empty when nothing is there.
    static func entries(_ path: String) throws(FileSystemError) -> [String] {
        try FileSystemPaths.entries(atPath: path, followLinks: true)
    }
}
