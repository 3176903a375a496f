@testable import LaunchCore
import Testing

/// The seccomp program, run by a small classic-BPF interpreter over the
/// calls it must refuse and those an app's runtime needs. The real
/// filter's effect on a launched app is EscapeProbeTests' (the probe's
/// `open-path-outside` and `name-to-handle-outside`).
@Suite struct MetadataProbeFilterTests {
    static let notSupported: Int32 = 95, noSystemCall: Int32 = 38
    static let allow: UInt32 = 0x7FFF_0000
    static func refused(_ errno: Int32) -> UInt32 { 0x0005_0000 | UInt32(errno) }

    /// Runs `program` over one `struct seccomp_data`.
    static func run(_ program: [MetadataProbeFilter.Instruction], number: UInt32, architecture: UInt32,
                    arguments: [UInt64] = []) -> UInt32? {
        func word(at offset: UInt32) -> UInt32 {
            switch offset {
            case 0: return number
            case 4: return architecture
            default:
                let index = Int((offset - 16) / 8)
                return index < arguments.count ? UInt32(truncatingIfNeeded: arguments[index]) : 0
            }
        }
        var accumulator: UInt32 = 0
        var pc = 0
        while pc < program.count {
            let instruction = program[pc]
            switch instruction.code {
            case 0x20: accumulator = word(at: instruction.operand)
            case 0x06: return instruction.operand
            case 0x15, 0x35, 0x45:
                let taken = instruction.code == 0x15 ? accumulator == instruction.operand
                    : instruction.code == 0x35 ? accumulator >= instruction.operand
                    : accumulator & instruction.operand != 0
                pc += Int(taken ? instruction.jumpIfTrue : instruction.jumpIfFalse)
            default: return nil
            }
            pc += 1
        }
        return nil  // fell off the end: the kernel refuses such a program
    }

    static let architectures: [(MetadataProbeFilter.Calls, String)] = [(.x86_64, "x86_64"), (.arm64, "arm64")]

    @Test(arguments: [0, 1])
    func refusesTheProbesAndAllowsTheRest(which: Int) throws {
        let (calls, _) = Self.architectures[which]
        let program = MetadataProbeFilter.program(for: calls, notSupported: Self.notSupported, noSystemCall: Self.noSystemCall)
        #expect(program.count < 64)
        let arch = calls.auditArchitecture
        func verdict(_ number: UInt32, _ arguments: [UInt64] = []) -> UInt32? {
            Self.run(program, number: number, architecture: arch, arguments: arguments)
        }
        let oPath = UInt64(MetadataProbeFilter.openPathOnly)
        let readOnlyDirectory: UInt64 = 0o200000 | 0o2000000  // O_DIRECTORY | O_CLOEXEC
        // openat: flags are the third argument.
        #expect(verdict(calls.openat, [100, 0, oPath | readOnlyDirectory]) == Self.refused(Self.notSupported))
        #expect(verdict(calls.openat, [100, 0, readOnlyDirectory]) == Self.allow)
        #expect(verdict(calls.openat, [100, 0, 0o101]) == Self.allow)   // O_WRONLY | O_CREAT
        if let open = calls.open {
            #expect(verdict(open, [0, oPath]) == Self.refused(Self.notSupported))
            #expect(verdict(open, [0, 0]) == Self.allow)
        }
        #expect(verdict(calls.openat2) == Self.refused(Self.noSystemCall))
        #expect(verdict(calls.nameToHandleAt) == Self.refused(Self.notSupported))
        #expect(verdict(calls.openByHandleAt) == Self.refused(Self.notSupported))
        for number in calls.ioUring { #expect(verdict(number) == Self.refused(Self.noSystemCall)) }
        // Calls a runtime needs: read, write, fstat, mmap, execve, fchdir, chdir (by number on each architecture).
        let everyday: [UInt32] = calls.open != nil ? [0, 1, 5, 9, 59, 81, 80] : [63, 64, 80, 222, 221, 50, 49]
        for number in everyday { #expect(verdict(number) == Self.allow, "call \(number) refused") }
        // Another ABI's numbers, and another architecture, are refused.
        if let base = calls.foreignABIBase { #expect(verdict(base + calls.openat) == Self.refused(Self.noSystemCall)) }
        #expect(Self.run(program, number: 3, architecture: 0x4000_0003) == Self.refused(Self.noSystemCall))
    }
}
