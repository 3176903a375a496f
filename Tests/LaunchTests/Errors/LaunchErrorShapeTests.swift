import LaunchCore
import Testing

/// `LaunchError` and `ELFError` are CodedErrors bound to LaunchCore's codes:
/// their context's fields (the path, the `errno`, the offset) read and
/// change as the error's own, and they read as they did as structs.
@Suite struct LaunchErrorShapeTests {
    @Test func contextFieldsReadAndChangeAsTheErrorsOwn() {
        var error = LaunchError(.spawnFailed, path: "/bin/app", errno: 2, "cannot spawn: no such file")
        #expect(error.path == "/bin/app")
        #expect(error.errno == 2)
        error.errno = nil
        error.path = ""
        #expect(error == LaunchError(.spawnFailed, "cannot spawn: no such file"))
        #expect(ELFError(.truncated, offset: 64, "header").offset == 64)
    }

    @Test func descriptionsReadAsBefore() {
        #expect(LaunchError(.pathNotFound, path: "/data", "no such path").description == "no such path: /data")
        #expect(LaunchError(.invalidRequest, "empty argument list").description == "empty argument list")
        #expect(ELFError(.truncated, offset: 64, "header past the end").description == "header past the end (at byte 64)")
        #expect(ELFError(.notELF, "not an ELF file").description == "not an ELF file")
    }

    @Test func eachModuleErrorIsCaughtAsItselfOnly() {
        let thrown: any Error = ELFError(.malformed, "bad table")
        #expect((thrown as? LaunchError) == nil)
        #expect((thrown as? ELFError)?.code == .malformed)
    }
}
