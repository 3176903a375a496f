import Foundation

extension AttemptLog {
    /// What an app must still be able to do inside its sandbox.
    mutating func tryAllowed(_ t: Targets) {
        let documents = t.container + "/Documents"
        let library = t.container + "/Library"
        for (name, directory) in [("write-documents", documents), ("write-caches", library + "/Caches"),
                                  ("write-preferences", library + "/Preferences"),
                                  ("write-tmp", t.container + "/tmp")] {
            attempt(name, expect: .allowed, "create a file in \(directory)") {
                Platform.writeFile(directory + "/" + t.tag)
            }
        }
        attempt("mkdir-application-support", expect: .allowed, "create Library/Application Support/<dir>") {
            Platform.makeDirectory(library + "/Application Support/" + t.tag)
        }
        attempt("atomic-write-documents", expect: .allowed, "Data.write(options: .atomic) into Documents") {
            do {
                try Data("atomic".utf8).write(to: URL(fileURLWithPath: documents + "/" + t.tag + ".atomic"),
                                              options: .atomic)
                return 0
            } catch { return Platform.permissionDenied }
        }
        attempt("rename-tmp-to-documents", expect: .allowed, minimumABI: 2, "move a file from tmp into Documents") {
            let staged = t.container + "/tmp/" + t.tag + "-staged"
            _ = Platform.writeFile(staged)
            return Platform.rename(staged, documents + "/" + t.tag + "-final")
        }
        attempt("symlink-inside", expect: .allowed, "link to a Documents file and read through it") {
            let link = documents + "/" + t.tag + "-inner-link"
            let made = Platform.symbolicLink(documents + "/" + t.tag, at: link)
            return made == 0 ? Platform.readFile(link) : made
        }
        attempt("truncate-documents", expect: .allowed, "truncate a Documents file") {
            Platform.truncate(documents + "/" + t.tag)
        }
        attempt("remove-documents", expect: .allowed, "delete a Documents file") {
            Platform.remove(documents + "/" + t.tag)
        }
        attempt("read-bundle", expect: .allowed, "read the bundle's Info.plist") {
            Platform.readFile(t.bundle + "/Info.plist")
        }
        attempt("list-container", expect: .allowed, "list the container root") {
            Platform.listDirectory(t.container)
        }
        attempt("foundation-temporary-directory", expect: .allowed, "NSTemporaryDirectory() is the container's tmp") {
            NSTemporaryDirectory().hasPrefix(t.container + "/tmp") ? 0 : Platform.notFound
        }
        attempt("foundation-home-directory", expect: .allowed, "NSHomeDirectory() is the container") {
            NSHomeDirectory() == t.container ? 0 : Platform.notFound
        }
        attempt("fchdir-documents", expect: .allowed, "enter Documents through a descriptor (fchdir)") {
            Platform.changeDirectoryThroughDescriptor(documents)
        }
        attempt("run-system-tool", expect: .allowed, skipUnless: Platform.exists("/bin/true"), "run /bin/true") {
            Platform.run("/bin/true")
        }
    }
}
