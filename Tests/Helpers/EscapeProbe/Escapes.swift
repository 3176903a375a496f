import Foundation

/// The locations the probe aims at. The launcher prepares `outside` (a
/// writable directory with `secret.txt` and `victim.txt`) and `other`
/// (another app's data container with `Documents/secret.txt`).
struct Targets {
    var container: String
    var bundle: String
    var outside: String
    var other: String
    let tag = "escape-\(Platform.processID)"
}

extension AttemptLog {
    /// Everything a confined app must not manage: each is a real attempt
    /// that succeeds when the probe runs unconfined.
    mutating func tryEscapes(_ t: Targets) {
        // A write that got through is undone at once, so an unconfined run
        // (which the tests also make) leaves nothing behind outside.
        func createAndUndo(_ path: String) -> Int32 {
            let error = Platform.writeFile(path)
            if error == 0 { _ = Platform.remove(path) }
            return error
        }
        let documents = t.container + "/Documents"
        let parent = (t.container as NSString).deletingLastPathComponent
        for (name, directory) in [("write-system-tmp", "/tmp"), ("write-var-tmp", "/var/tmp"),
                                  ("write-dev-shm", "/dev/shm"), ("write-work", "/work"),
                                  ("write-root", "/")] {
            attempt(name, expect: .denied, skipUnless: Platform.exists(directory), "create a file in \(directory)") {
                createAndUndo(directory + "/" + t.tag)
            }
        }
        attempt("write-home-parent", expect: .denied, "create a file beside the container") {
            createAndUndo(parent + "/" + t.tag)
        }
        attempt("write-dotdot-relative", expect: .denied, "create ../file from the container") {
            createAndUndo("Documents/../../" + t.tag + "-relative")
        }
        attempt("write-outside", expect: .denied, "create a file in a directory outside") {
            createAndUndo(t.outside + "/" + t.tag)
        }
        attempt("write-via-proc-root", expect: .denied, "create a file outside through /proc/self/root") {
            createAndUndo("/proc/self/root" + t.outside + "/" + t.tag + "-proc")
        }
        attempt("write-bundle", expect: .denied, "create a file in the app's bundle") {
            createAndUndo(t.bundle + "/" + t.tag)
        }
        attempt("modify-bundle-file", expect: .denied, "append to the bundle's Info.plist") {
            Platform.writeFile(t.bundle + "/Info.plist", create: false)
        }
        attempt("write-container-root", expect: .denied, "create a file at the container root") {
            createAndUndo(t.container + "/" + t.tag)
        }
        attempt("mkdir-container-root", expect: .denied, "create a directory at the container root") {
            let directory = t.container + "/" + t.tag
            let error = Platform.makeDirectory(directory)
            if error == 0 { _ = Platform.removeDirectory(directory) }
            return error
        }
        attempt("read-other-container", expect: .denied, "read another app's Documents") {
            Platform.readFile(t.other + "/Documents/secret.txt")
        }
        attempt("list-other-container", expect: .denied, "list another app's container") {
            Platform.listDirectory(t.other)
        }
        attempt("write-other-container", expect: .denied, "create a file in another app's Documents") {
            createAndUndo(t.other + "/Documents/" + t.tag)
        }
        attempt("read-outside", expect: .denied, "read a file outside") {
            Platform.readFile(t.outside + "/secret.txt")
        }
        attempt("read-etc-shadow", expect: .denied, skipUnless: Platform.exists("/etc/shadow"), "read /etc/shadow") {
            Platform.readFile("/etc/shadow")
        }
        attempt("write-through-symlink", expect: .denied, "write outside through a link made in Documents") {
            let link = documents + "/" + t.tag + "-link"
            _ = Platform.symbolicLink(t.outside + "/" + t.tag + "-via-link", at: link)
            return Platform.writeFile(link)
        }
        attempt("symlink-outside", expect: .denied, "create a symbolic link outside") {
            Platform.symbolicLink(documents, at: t.outside + "/" + t.tag + "-symlink")
        }
        attempt("hardlink-in", expect: .denied, "hard-link an outside file into Documents") {
            Platform.link(t.outside + "/victim.txt", documents + "/" + t.tag + "-stolen")
        }
        attempt("hardlink-out", expect: .denied, "hard-link a Documents file outside") {
            let mine = documents + "/" + t.tag + "-mine"
            _ = Platform.writeFile(mine)
            return Platform.link(mine, t.outside + "/" + t.tag + "-planted")
        }
        attempt("rename-out", expect: .denied, "move a Documents file outside") {
            let mine = documents + "/" + t.tag + "-moving"
            _ = Platform.writeFile(mine)
            return Platform.rename(mine, t.outside + "/" + t.tag + "-moved")
        }
        attempt("rename-in", expect: .denied, "move an outside file into Documents") {
            Platform.rename(t.outside + "/secret.txt", documents + "/" + t.tag + "-taken")
        }
        attempt("mkdir-outside", expect: .denied, "create a directory outside") {
            Platform.makeDirectory(t.outside + "/" + t.tag + "-dir")
        }
        attempt("mkfifo-outside", expect: .denied, "create a named pipe outside") {
            Platform.makeFIFO(t.outside + "/" + t.tag + "-fifo")
        }
        attempt("truncate-outside", expect: .denied, minimumABI: 3, "truncate a file outside") {
            Platform.truncate(t.outside + "/victim.txt")
        }
        attempt("remove-outside", expect: .denied, "delete a file outside") {
            Platform.remove(t.outside + "/victim.txt")
        }
        // Metadata probes Landlock does not see; the launcher's seccomp
        // filter refuses them whole (LaunchCore's MetadataProbeFilter,
        // which says why `chdir` is left alone).
        attempt("open-path-outside", expect: .denied, "hold the outside directory with O_PATH") {
            Platform.openPathOnly(t.outside)
        }
        attempt("name-to-handle-outside", expect: .denied, "get a file handle for a file outside") {
            Platform.fileHandle(t.outside + "/secret.txt")
        }
        attempt("execute-written-file", expect: .denied, "run a script the app wrote into tmp") {
            let script = t.container + "/tmp/" + t.tag + ".sh"
            try? Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: script))
            _ = Platform.makeExecutable(script)
            return Platform.run(script)
        }
    }
}
