import Dispatch
import SystemPackage

/// Releases the holds an atomic replace keeps on the files it replaced, on
/// a background queue.
///
/// Closing the last descriptor of an unlinked file frees its blocks, and on
/// a disk mounted with `discard` (as this project's Linux machines are) the
/// kernel discards them before `close` returns: 60–90 µs for 4 KiB, several
/// milliseconds when the disk is busy. Done here, that cost leaves the
/// replace's caller, whose file is already in place and, at ``Durability/full``,
/// flushed. The old name is gone before the replace returns; only the
/// nameless inode lives on until its release, and if the process dies
/// first the kernel releases it the same way.
package enum ReplacedFiles {
    private static let queue = DispatchQueue(label: "FileSystem.ReplacedFiles", qos: .utility)
    /// At most this many holds wait at once; past it a replace releases its
    /// own hold, so a burst of replaces can never pile up descriptors.
    private static let slots = DispatchSemaphore(value: capacity)

    /// Closes `hold` on the background queue, or here when too many wait.
    package static func release(_ hold: FileDescriptor) {
        guard slots.wait(timeout: .now()) == .success else {
            hold.closeQuietly()
            return
        }
        queue.async {
            hold.closeQuietly()
            slots.signal()
        }
    }

    /// Returns once every hold released so far is closed (for tests).
    package static func waitForReleases() {
        queue.sync {}
    }

    /// How many holds may wait at once.
    package static let capacity = 64
}
