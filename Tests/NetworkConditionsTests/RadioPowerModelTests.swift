import Testing
@testable import NetworkConditions

/// Radio-on time is the length of the union of `[start, end + tail]`.
@Suite struct RadioPowerModelTests {
    private func model(tail: Double, _ transfers: [(Double, Double)]) throws -> RadioPowerModel {
        var model = try RadioPowerModel(tail: tail)
        for (start, end) in transfers { try model.record(start: start, end: end) }
        return model
    }

    @Test func noTransfersNoRadioTime() throws {
        let empty = try model(tail: 10, [])
        #expect(empty.radioOnTime == 0)
        #expect(empty.radioOnPeriods == 0)
    }

    @Test func oneTransferPaysItsTail() throws {
        #expect(try model(tail: 10, [(5, 7)]).radioOnTime == 12)
    }

    @Test func disjointTransfersEachPayATail() throws {
        let spread = try model(tail: 2, [(0, 1), (10, 11), (20, 21)])
        #expect(spread.radioOnTime == 9)
        #expect(spread.radioOnPeriods == 3)
    }

    @Test func aTransferInsideAnotherTailSharesIt() throws {
        // [0, 1+5] ∪ [3, 4+5] = [0, 9]
        let shared = try model(tail: 5, [(0, 1), (3, 4)])
        #expect(shared.radioOnTime == 9)
        #expect(shared.radioOnPeriods == 1)
    }

    @Test func nestedAndTouchingIntervalsAreCountedOnce() throws {
        // [0, 12] contains [2, 5]; [12, 14] touches it: [0, 14].
        #expect(try model(tail: 2, [(0, 10), (2, 3), (12, 12)]).radioOnTime == 14)
    }

    @Test func theOrderOfRecordingDoesNotMatter() throws {
        let forward = try model(tail: 3, [(0, 1), (2, 2.5), (10, 11), (30, 30)])
        let backward = try model(tail: 3, [(30, 30), (10, 11), (2, 2.5), (0, 1)])
        #expect(forward.radioOnTime == backward.radioOnTime)
        #expect(forward.radioOnTime == 5.5 + 4 + 3)
    }

    @Test(arguments: 0..<50)
    func matchesAMeasureOnAHalfSecondGrid(round: Int) throws {
        // Intervals on a 0.5 s grid, spread by multiplying primes, measured
        // by counting the grid cells they cover.
        var transfers: [(Double, Double)] = []
        for index in 0..<(round % 8) {
            let start = Double((round * 37 + index * 53) % 80) / 2
            transfers.append((start, start + Double((round + index * 7) % 6) / 2))
        }
        let tail = Double(round % 10) / 2
        var covered = Set<Int>()
        for (start, end) in transfers {
            for cell in Int(start * 2)..<Int((end + tail) * 2) { covered.insert(cell) }
        }
        #expect(try model(tail: tail, transfers).radioOnTime == Double(covered.count) / 2)
    }

    @Test func coalescingCutsRadioTime() throws {
        // 100 small requests, one every 30 s on LTE, against the same 100 sent at once.
        var immediate = RadioPowerModel(route: .cellular)
        var coalesced = RadioPowerModel(route: .cellular)
        for index in 0..<100 {
            try immediate.record(start: Double(index) * 30, end: Double(index) * 30 + 0.1)
            try coalesced.record(start: 0, end: 0.5)
        }
        #expect(immediate.radioOnTime / coalesced.radioOnTime > 5)
    }

    @Test func theTailsAreTheMeasuredOnes() {
        #expect(RadioPowerModel().tail == RadioPowerModel.Tail.lte)
        #expect(RadioPowerModel(route: .cellular).tail == RadioPowerModel.Tail.lte)
        #expect(RadioPowerModel(route: .wifi).tail == RadioPowerModel.Tail.wifi)
        #expect(RadioPowerModel.Tail.lte > 5 && RadioPowerModel.Tail.lte < 15)
        #expect(RadioPowerModel.Tail.wifi < 1)
    }

    @Test func badTransfersAreRefused() throws {
        var model = try RadioPowerModel(tail: 1)
        #expect(throws: RadioPowerModelError(.endBeforeStart, start: 2, end: 1)) { try model.record(start: 2, end: 1) }
        #expect(throws: RadioPowerModelError.self) { try model.record(start: .nan, end: 1) }
        #expect(throws: RadioPowerModelError.self) { try model.record(start: 0, end: .infinity) }
        #expect(throws: RadioPowerModelError.self) { try RadioPowerModel(tail: -1) }
        #expect(model.transfers.isEmpty)
    }
}
