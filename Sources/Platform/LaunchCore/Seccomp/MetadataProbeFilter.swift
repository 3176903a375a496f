/// A seccomp filter that closes what Landlock leaves open to a confined
/// app: ways to hold, or learn about, a file outside its rules without
/// opening it for reading or writing.
///
/// Landlock checks an open for reading, writing or listing, but not an
/// `open` with `O_PATH` (a descriptor to any directory, for `fstat` and
/// `*at` lookups) nor `name_to_handle_at` (a file's handle, which
/// `open_by_handle_at` would turn back into a descriptor). A filter sees
/// only a call's number and its integer arguments, never a path, so each is
/// refused whole, with what the app's runtime can live with:
/// - `O_PATH` opens (`open`, `openat`) answer `EOPNOTSUPP`, which the
///   package's own file layer takes as "open it for reading instead" (an
///   open Landlock then checks);
/// - `openat2` answers `ENOSYS`, as on a kernel without it, so callers fall
///   back to `openat`, which the filter sees (its flags are in a struct
///   the filter cannot read);
/// - `name_to_handle_at` and `open_by_handle_at` answer `EOPNOTSUPP`, as a
///   file system without handles does;
/// - io_uring's three calls answer `ENOSYS`: its open bypasses every
///   filter on `openat`;
/// - a call of another ABI on the same kernel (i386 or x32 on x86-64), whose
///   numbers the filter does not know, answers `ENOSYS`.
///
/// `chdir` stays allowed, though Landlock does not check it either: refused
/// whole, it breaks every script's `cd` inside the container (the device
/// tests' apps among them), and what it tells about a folder outside
/// (that it exists and may be searched) `stat` tells too, which no filter
/// can refuse without breaking every runtime. Opens after it are still
/// Landlock's to check.
///
/// Everything else is allowed: the filter narrows, Landlock confines.
package enum MetadataProbeFilter {
    /// The system-call numbers of one architecture.
    package struct Calls {
        package var auditArchitecture: UInt32
        /// `open`, where the architecture has it (not on arm64).
        package var open: UInt32?
        package var openat: UInt32
        package var openat2: UInt32
        package var nameToHandleAt: UInt32
        package var openByHandleAt: UInt32
        package var ioUring: ClosedRange<UInt32>
        /// Numbers at or above this belong to another ABI (x32's bit).
        package var foreignABIBase: UInt32?

        package static let x86_64 = Calls(auditArchitecture: 0xC000_003E, open: 2, openat: 257, openat2: 437,
                                  nameToHandleAt: 303, openByHandleAt: 304, ioUring: 425...427, foreignABIBase: 0x4000_0000)
        package static let arm64 = Calls(auditArchitecture: 0xC000_00B7, open: nil, openat: 56, openat2: 437,
                                 nameToHandleAt: 264, openByHandleAt: 265, ioUring: 425...427, foreignABIBase: nil)

        /// This build's architecture; nil where the filter is not written
        /// for it (the launch then goes on with Landlock alone).
        package static var current: Calls? {
            #if arch(x86_64)
            return .x86_64
            #elseif arch(arm64)
            return .arm64
            #else
            return nil
            #endif
        }
    }

    /// One BPF instruction (`struct sock_filter`).
    package struct Instruction: Equatable {
        package var code: UInt16
        package var jumpIfTrue: UInt8
        package var jumpIfFalse: UInt8
        package var operand: UInt32
    }

    // Classic BPF opcodes and seccomp's return values (linux/filter.h,
    // linux/seccomp.h).
    private static let loadWord: UInt16 = 0x20          // BPF_LD | BPF_W | BPF_ABS
    private static let jumpIfEqual: UInt16 = 0x15       // BPF_JMP | BPF_JEQ | BPF_K
    private static let jumpIfAtLeast: UInt16 = 0x35     // BPF_JMP | BPF_JGE | BPF_K
    private static let jumpIfBitsSet: UInt16 = 0x45     // BPF_JMP | BPF_JSET | BPF_K
    private static let returnValue: UInt16 = 0x06       // BPF_RET | BPF_K
    private static let allow: UInt32 = 0x7FFF_0000      // SECCOMP_RET_ALLOW
    private static func fail(_ errno: Int32) -> UInt32 { 0x0005_0000 | UInt32(errno) }  // SECCOMP_RET_ERRNO

    // Offsets in `struct seccomp_data`: nr, arch, instruction pointer, then
    // six 64-bit arguments; the low word of an argument on a little-endian
    // machine is at its own offset.
    private static let numberOffset: UInt32 = 0
    private static let architectureOffset: UInt32 = 4
    private static func argumentOffset(_ index: UInt32) -> UInt32 { 16 + 8 * index }

    /// `O_PATH` (0o10000000, the same on x86-64 and arm64).
    package static let openPathOnly: UInt32 = 0o1000_0000

    /// The filter for `calls`, with the errors it answers.
    package static func program(for calls: Calls, notSupported: Int32, noSystemCall: Int32) -> [Instruction] {
        var program: [Instruction] = []
        func emit(_ code: UInt16, _ operand: UInt32, _ jumpIfTrue: UInt8 = 0, _ jumpIfFalse: UInt8 = 0) {
            program.append(Instruction(code: code, jumpIfTrue: jumpIfTrue, jumpIfFalse: jumpIfFalse, operand: operand))
        }
        // The architecture first: another ABI's numbers mean other calls.
        emit(loadWord, architectureOffset)
        emit(jumpIfEqual, calls.auditArchitecture, 1, 0)
        emit(returnValue, fail(noSystemCall))
        emit(loadWord, numberOffset)
        if let base = calls.foreignABIBase {
            emit(jumpIfAtLeast, base, 0, 1)
            emit(returnValue, fail(noSystemCall))
        }
        // Whole calls refused: number, answer.
        let refused: [(UInt32, UInt32)] = [
            (calls.openat2, fail(noSystemCall)),
            (calls.nameToHandleAt, fail(notSupported)),
            (calls.openByHandleAt, fail(notSupported)),
        ] + calls.ioUring.map { ($0, fail(noSystemCall)) }
        for (number, answer) in refused {
            emit(jumpIfEqual, number, 0, 1)
            emit(returnValue, answer)
        }
        // Opens with O_PATH: the flags are `open`'s second argument and
        // `openat`'s third.
        var flagged: [(UInt32, UInt32)] = [(calls.openat, 2)]
        if let open = calls.open { flagged.append((open, 1)) }
        for (number, flagsArgument) in flagged {
            emit(jumpIfEqual, number, 0, 4)
            emit(loadWord, argumentOffset(flagsArgument))
            emit(jumpIfBitsSet, openPathOnly, 0, 1)
            emit(returnValue, fail(notSupported))
            // The accumulator holds the flags now, not the number: an
            // open without O_PATH is allowed here.
            emit(returnValue, allow)
        }
        emit(returnValue, allow)
        return program
    }

    /// Installs the filter on this thread (and what it execs), when the
    /// architecture has one and the kernel has seccomp; returns whether it
    /// did. A kernel without seccomp filters (`EINVAL`) leaves the launch
    /// confined by Landlock alone, as before the filter existed.
    package static func install() throws -> Bool {
        guard let calls = Calls.current else { return false }
        let filter = program(for: calls, notSupported: Platform.operationNotSupported, noSystemCall: Platform.notSupported)
        do {
            try Platform.installSeccompFilter(filter)
        } catch let failure as SystemFailure {
            if failure.errno == Platform.invalidArgument || failure.errno == Platform.notSupported { return false }
            throw LaunchError(.confinementFailed, failure, "install the seccomp filter against metadata probes")
        }
        return true
    }
}
