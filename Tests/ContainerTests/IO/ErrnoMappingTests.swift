@testable import Container
import FileSystem
import Foundation
import SystemPackage
import Testing

/// Errors that cannot be provoked portably (a full disk needs a tiny file
/// system) are checked at the mapping from errno to code.
@Suite struct ErrnoMappingTests {
    @Test func systemErrorsMapToTypedCodes() {
        func mapped(_ errno: Int32) -> ContainerError.Code {
            ContainerError(FileSystemError(Errno(rawValue: errno), "write", path: "x"), path: "Documents/x", "write").code
        }
        #expect(mapped(ENOSPC) == .diskFull)
        #expect(mapped(EDQUOT) == .diskFull)
        #expect(mapped(EFBIG) == .fileTooLarge)
        #expect(mapped(ENOENT) == .notFound)
        #expect(mapped(EEXIST) == .alreadyExists)
        #expect(mapped(ENOTEMPTY) == .directoryNotEmpty)
        #expect(mapped(EACCES) == .permissionDenied)
        #expect(mapped(EXDEV) == .escapesContainer)
        #expect(mapped(ELOOP) == .symbolicLinkLoop)
        #expect(mapped(EROFS) == .readOnly)
        #expect(mapped(EIO) == .io(errno: EIO))
    }
}
