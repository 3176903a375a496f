import FileSystem
import Foundation
import Testing

/// The package's one lock: one thread in the value at a time, and a wait
/// for a condition that ends on a change or when its time runs out.
@Suite struct LockedTests {
    private struct Tally {
        var count = 0
        var inside = false
        var overlaps = 0
    }

    @Test func onlyOneThreadIsInsideTheLockAtATime() {
        let tally = Locked(Tally())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                tally.withLock { value in
                    if value.inside { value.overlaps += 1 }
                    value.inside = true
                    value.count += 1
                    value.inside = false
                }
            }
        }
        let final = tally.withLock { $0 }
        #expect(final.count == 80_000)
        #expect(final.overlaps == 0)
    }

    @Test func anErrorThrownInsideComesOutAndReleasesTheLock() {
        struct Refused: Error {}
        let value = Locked(1)
        #expect(throws: Refused.self) {
            try value.withLock { (_: inout Int) throws(Refused) in throw Refused() }
        }
        #expect(value.withLock { $0 } == 1)
    }

    @Test func aConditionThatHoldsAlreadyDoesNotWait() {
        let ready = Locked(true)
        let clock = ContinuousClock()
        let start = clock.now
        let result = ready.withLock(when: { $0 }, timeout: .seconds(30)) { _ in "ran" }
        #expect(result == "ran")
        #expect(clock.now - start < .seconds(10))
    }

    @Test func aTimedWaitReturnsWhenAnotherThreadMakesTheConditionHold() {
        let count = Locked(0)
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            for _ in 0..<3 { count.withLock { $0 += 1 } }
        }
        let seen = count.withLock(when: { $0 == 3 }, timeout: .seconds(60)) { value -> Int in
            value = 10
            return value
        }
        #expect(seen == 10)
        #expect(count.withLock { $0 } == 10)
        // Woken by the change, long before the time ran out.
        #expect(clock.now - start < .seconds(30))
    }

    @Test func aWaitWithoutATimeoutReturnsOnTheChange() {
        let done = Locked(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            done.withLock { $0 = true }
        }
        #expect(done.withLock(when: { $0 }, timeout: nil) { _ in true } == true)
    }

    @Test func aTimedWaitGivesNilWhenTheTimeRunsOut() {
        let never = Locked(false)
        let clock = ContinuousClock()
        let start = clock.now
        var ran = false
        let result: Int? = never.withLock(when: { $0 }, timeout: .milliseconds(150)) { _ in
            ran = true
            return 1
        }
        let waited = clock.now - start
        #expect(result == nil)
        #expect(!ran)
        #expect(waited >= .milliseconds(150))
        #expect(waited < .seconds(30))
    }

    @Test func aTimedWaitOutlastsChangesThatDoNotMakeTheConditionHold() {
        let count = Locked(0)
        let busy = DispatchGroup()
        DispatchQueue.global().async(group: busy) {
            for _ in 0..<20 {
                count.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let result = count.withLock(when: { $0 < 0 }, timeout: .milliseconds(200)) { $0 }
        #expect(result == nil)
        #expect(clock.now - start >= .milliseconds(200))
        busy.wait()
    }
}

