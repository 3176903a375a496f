import Container
import Testing

/// `ContainerError` and `MigrationError` share CodedErrors' one shape and
/// stay two types: each is caught as itself only, reads as before, and is
/// written as it was when it was a struct of its own.
@Suite struct ErrorShapeTests {
    private func fail(_ error: any Error) throws { throw error }

    @Test func eachModuleErrorIsCaughtAsItselfOnly() {
        let thrown: any Error = MigrationError(.conflict, path: "Documents/a", "already there")
        #expect((thrown as? ContainerError) == nil)
        #expect((thrown as? MigrationError)?.code == .conflict)
        do {
            try fail(ContainerError(.notFound, path: "Documents/a", "no such file"))
        } catch let error as MigrationError {
            Issue.record("a container error caught as a migration error: \(error)")
        } catch let error as ContainerError where error.code == .notFound {
            #expect(error.path == "Documents/a")
        } catch {
            Issue.record("not caught as a container error: \(error)")
        }
    }

    @Test func codesKeepTheirNamesAndPayloads() {
        let code: ContainerError.Code = .caseMismatch(suggestion: "Documents/A")
        let wrapped = MigrationError(ContainerError(code, path: "Documents/a", "no such file"))
        #expect(wrapped.code == MigrationError.Code.container(.caseMismatch(suggestion: "Documents/A")))
        #expect(wrapped.path == "Documents/a")
        #expect(Set([wrapped, wrapped]).count == 1)
    }

    @Test func descriptionsReadAsEachModuleWroteThem() {
        #expect(ContainerError(.notFound, path: "Documents/a", "no such file").description == "no such file: Documents/a")
        #expect(ContainerError(.invalidPath, path: "", "empty path").description == "empty path")
        #expect(MigrationError(.stopped, "stopped").description == "stopped")
        #expect(MigrationError(.conflict, path: "Documents/a", "Documents/a differs").description == "Documents/a differs")
        #expect(MigrationError(.conflict, path: "Documents/a", "differs").description == "differs: Documents/a")
    }

    @Test func typedThrowsKeepTheType() {
        func refuse() throws(ContainerError) { throw ContainerError(.writeAtRoot, path: "x", "cannot write at the root") }
        do { try refuse() } catch { #expect(error.code == .writeAtRoot) }
    }
}
