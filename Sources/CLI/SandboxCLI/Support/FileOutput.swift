import FileSystem
import Foundation
import Launch
import SystemPackage

/// Writes command output: to standard output, or to a named output.
///
/// Every byte goes through FileSystem: standard output with
/// `FileDescriptor.writeFully`, a named output by the package's one output
/// rule (`FileSystemPaths.writeOutput`): a regular file is replaced
/// atomically, so a reader sees either the old or the new contents and
/// never a half-written file, and a device, a FIFO or a socket is written
/// through, never replaced.
enum FileOutput {
    /// Writes `data` to standard output.
    static func writeToStandardOutput(_ data: Data) throws {
        do { try FileDescriptor.standardOutput.writeFully(data) } catch {
            throw FileIOError("write to standard output", error)
        }
    }

    /// Whether standard error is a terminal (progress bars are drawn only there).
    static var standardErrorIsTerminal: Bool { ProcessControl.isTerminal(ProcessControl.standardError) }

    /// Writes `text` to standard error, ignoring failures: there is nowhere
    /// left to report them.
    static func writeToStandardError(_ text: String) {
        try? FileDescriptor.standardError.writeFully(Array(text.utf8))
    }

    /// Writes `data` to the named output `path` by the package's output
    /// rule (`OutputDestination`): a regular file (or a new name) is
    /// replaced atomically, keeping its permission bits, and flushed with
    /// its directory (`.full`), so the user's file survives a power loss
    /// once the command has said it is written; a character device, a FIFO
    /// or a socket is written through and stays what it was; anything else
    /// is refused. A symbolic link's target is replaced, so the link keeps
    /// working, as a plain write through it would.
    static func writeAtomically(_ data: Data, to path: String) throws {
        do {
            try FileSystemPaths.writeOutput(toPath: path) { file throws(FileSystemError) in try file.writeFully(data) }
        } catch {
            throw FileIOError("write", path: path, error)
        }
    }

    /// Writes the named output `path` as ``writeAtomically(_:to:)`` does,
    /// with the bytes `produce` hands to the writer it is given, in order,
    /// as it makes them: a file is written while the rest is still being
    /// made, and nothing is visible at `path` until all of it is written
    /// and flushed. When `produce` throws, a file is left as it was and its
    /// error is rethrown; the writer may be called from any thread, one
    /// call at a time.
    static func replaceAtomically(_ path: String,
                                  producing produce: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        var producerFailure: (any Error)?
        do {
            try FileSystemPaths.writeOutput(toPath: path) { file throws(FileSystemError) in
                do {
                    var position: UInt64 = 0
                    try produce { bytes in
                        try file.writeFully(bytes)
                        // The disk starts on each piece while the next is
                        // made; the flush at the end still waits for all.
                        file.startWriteback(offset: position, count: bytes.count)
                        position += UInt64(bytes.count)
                    }
                } catch let error as FileSystemError {
                    throw error
                } catch {
                    // Not the file's failure: abandon the replace, and
                    // report the producer's own error below.
                    producerFailure = error
                    throw FileSystemError(.canceled, "write", path: "")
                }
            }
        } catch {
            if let producerFailure { throw producerFailure }
            throw FileIOError("write", path: path, error)
        }
    }
}
