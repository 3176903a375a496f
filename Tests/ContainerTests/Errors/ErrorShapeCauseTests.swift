import CodedErrors
import Container
import Testing

/// A coded error keeps the error it was made from: a caller at the top
/// walks the chain to the cause, asks whether the disk or the quota is
/// full at any depth, and reads the cause once in the description; two
/// errors that say the same are equal whatever their causes.
@Suite struct ErrorShapeCauseTests {
    /// A module's codes, two of them of a kind a caller asks about.
    enum ProbeCode: String, ErrorCode {
        case full, quota, broken

        var failureKind: FailureKind? {
            switch self {
            case .full: .noSpace
            case .quota: .overQuota
            case .broken: nil
            }
        }
    }
    typealias ProbeError = CodedError<ProbeCode>

    /// An error that is its own cause, as only a reference can be.
    final class Loop: CausedError, @unchecked Sendable {
        var next: (any Error)?
        var underlying: (any Error)? { next }
    }

    @Test func theChainLeadsFromTheTopToTheCause() throws {
        let bottom = ProbeError(.full, path: "Library/a", "cannot write")
        let middle = ContainerError(.io(errno: 5), path: "Library/a", "cannot save").caused(by: bottom)
        let top = MigrationError(.stopped, path: "Library", "cannot migrate").caused(by: middle)
        #expect(top.causeChain.count == 3)
        #expect(top.causeChain[1] is ContainerError)
        #expect(top.firstCause(of: ProbeError.self) == bottom)
        #expect(top.firstCause(of: ContainerError.self)?.message == "cannot save")
        #expect(top.firstCause(of: MigrationError.self)?.code == .stopped)
        #expect((top as any Error).firstCause(of: Loop.self) == nil)
        #expect(top.isDiskFull)
        #expect(!top.isOverQuota)
        #expect(!middle.caused(by: ProbeError(.broken, "no")).isDiskFull)
        #expect(ProbeError(.quota, "the account is full").isOverQuota)
        // The code's own kind is the error's; a cause's is not.
        #expect(bottom.failureKind == .noSpace)
        #expect(top.failureKind == nil)
    }

    @Test func aCauseChangesNothingElse() {
        let plain = ContainerError(.notFound, path: "Documents/a", "cannot open")
        let caused = plain.caused(by: ProbeError(.broken, "gone"))
        #expect(plain.underlying == nil)
        #expect(caused.code == plain.code && caused.message == plain.message && caused.path == plain.path)
        #expect(ContainerError(.notFound, "cannot open", context: ErrorPath(path: "x"), underlying: plain).underlying is ContainerError)
    }

    @Test func equalityAndHashingIgnoreTheCause() {
        let error = ContainerError(.diskFull, path: "Library/b", "cannot write")
        let one = error.caused(by: ProbeError(.full, "full"))
        let other = error.caused(by: ProbeError(.broken, "broken"))
        #expect(one == other)
        #expect(one == error)
        #expect(Set([one, other, error]).count == 1)
        #expect(one.hashValue == error.hashValue)
        #expect(one != ContainerError(.diskFull, path: "Library/b", "cannot read").caused(by: ProbeError(.full, "full")))
    }

    @Test func theDescriptionSaysEachCauseOnce() {
        let bottom = ProbeError(.full, path: "Library/.tmp-1", "No space left on device")
        #expect(bottom.description == "Library/.tmp-1: No space left on device")
        let middle = ContainerError(.diskFull, path: "Library/a", "cannot write").caused(by: bottom)
        #expect(middle.description == "cannot write: Library/a: Library/.tmp-1: No space left on device")
        let top = MigrationError(.stopped, "cannot migrate").caused(by: middle)
        #expect(top.description == "cannot migrate: cannot write: Library/a: Library/.tmp-1: No space left on device")
        // A message that still quotes its cause does not get it twice.
        let quoting = MigrationError(.stopped, "cannot migrate: \(middle)").caused(by: middle)
        #expect(quoting.description == top.description)
        #expect(ContainerError(.notFound, path: "a", "cannot open").description == "cannot open: a")
        // A cause that begins with the words this error ends with: once.
        let write = ProbeError(.full, "cannot write: No space left on device")
        #expect(MigrationError(.stopped, path: "Documents/x", "cannot write").caused(by: write).description
                == "cannot write: Documents/x: cannot write: No space left on device")
        #expect(ProbeError(.broken, "cannot write").caused(by: write).description == "cannot write: No space left on device")
        #expect(ProbeError(.broken, path: "p", "cannot write").caused(by: write).description == "p: cannot write: No space left on device")
        #expect(ProbeError(.broken, path: "p", "cannot write").caused(by: ProbeError(.full, "cannot writev: no")).description
                == "p: cannot write: cannot writev: no")
    }

    @Test func aChainThatLoopsStillEnds() {
        let loop = Loop()
        loop.next = loop
        #expect(loop.causeChain.count == 16)
        #expect(!loop.isDiskFull)
        let caused = ProbeError(.broken, "loops").caused(by: loop)
        #expect(caused.causeChain.count == 16)
    }
}
