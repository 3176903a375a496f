import Dispatch

/// Runs two pieces of work at once, for the binary writer's parallel path.
enum TwoThreads {
    /// Runs `front` and `back` concurrently (the calling thread takes one of
    /// them) and returns both outcomes once both finished.
    ///
    /// The two closures must not write anything the other reads or writes:
    /// each may read shared values and write only memory of its own (its own
    /// values, or a range of a buffer that is the other's to leave alone).
    static func run<Front, Back>(_ front: () throws -> Front,
                                 _ back: () throws -> Back) -> (front: Result<Front, any Error>, back: Result<Back, any Error>) {
        withoutActuallyEscaping(front) { front in
            withoutActuallyEscaping(back) { back in
                let parts = Parts(front: front, back: back)
                DispatchQueue.concurrentPerform(iterations: 2) { parts.run($0) }
                // concurrentPerform returns only after running both parts;
                // were one ever left out, it runs here instead.
                return (parts.frontResult ?? Result(catching: front), parts.backResult ?? Result(catching: back))
            }
        }
    }
}

/// The two closures and their outcomes. The box is `@unchecked Sendable`
/// because `concurrentPerform` wants a `Sendable` closure: each part only
/// writes its own result property, the closures' own accesses are the
/// caller's to keep apart (see ``TwoThreads/run(_:_:)``), and the results are
/// read only after `concurrentPerform` returned, which orders them after both
/// writes.
private final class Parts<Front, Back>: @unchecked Sendable {
    let front: () throws -> Front
    let back: () throws -> Back
    var frontResult: Result<Front, any Error>?
    var backResult: Result<Back, any Error>?

    init(front: @escaping () throws -> Front, back: @escaping () throws -> Back) {
        self.front = front
        self.back = back
    }

    func run(_ part: Int) {
        if part == 0 {
            frontResult = Result(catching: front)
        } else {
            backResult = Result(catching: back)
        }
    }
}
