import Foundation

/// Large values are written as XML on two threads: the root's children are
/// cut in half, each half is written into its own buffer, and the second
/// buffer is appended to the first. XML numbers nothing and shares nothing,
/// so the halves are independent and the bytes are exactly the one-thread
/// writer's; an error is the one the one-thread writer meets first (the
/// front half's, else the back half's), with the same key path.
extension XMLPropertyListWriter {
    /// Values with fewer objects than this are written on one thread.
    static let parallelObjectThreshold = 65_536

    /// Writes `value` in two halves, or returns nil when its root is not a
    /// container of at least two children. `capacity` is the whole
    /// document's estimated size.
    func writeInHalves(_ value: PropertyListValue, capacity: Int) throws -> Data? {
        let count: Int
        let open: StaticString
        let close: StaticString
        switch value {
        case .array(let elements): (count, open, close) = (elements.count, "<array>\n", "</array>\n")
        case .dictionary(let entries): (count, open, close) = (entries.count, "<dict>\n", "</dict>\n")
        default: return nil
        }
        guard count >= 2 else { return nil }
        return try Self.writeInHalves(count: count, open: open, close: close, maximumDepth: maximumDepth, capacity: capacity) {
            try $0.emitChildren(of: value, $1)
        }
    }

    /// Writes a document whose root container has `count` children
    /// (`count` ≥ 2) and is opened by `open` and closed by `close`, its
    /// children written by `emitChildren` (a range of them, one level in)
    /// in two halves on two threads, then joined.
    static func writeInHalves(count: Int, open: StaticString, close: StaticString, maximumDepth: Int, capacity: Int,
                              emitChildren: (inout XMLPlistEmitter, Range<Int>) throws -> Void) throws -> Data {
        let split = count / 2
        let (front, back) = TwoThreads.run({
            var emitter = XMLPlistEmitter(maximumDepth: maximumDepth)
            emitter.output.reserve(capacity)
            try openDocument(&emitter, open: open)
            try emitChildren(&emitter, 0..<split)
            return emitter
        }, {
            var emitter = XMLPlistEmitter(maximumDepth: maximumDepth)
            emitter.output.reserve(capacity / 2 + 4096)
            try emitChildren(&emitter, split..<count)
            return emitter
        })
        var whole = try front.get()
        let rest = try back.get()
        whole.output.append(rest.output.written)
        closeDocument(&whole.output, close: close)
        return whole.output.takeData()
    }

    /// What comes before the root container's children, for a writer that
    /// writes them in parts: the header and the root's opening tag `open`.
    static func openDocument(_ emitter: inout XMLPlistEmitter, open: StaticString) throws {
        emitter.output.append(Self.header)
        try emitter.checkDepth(0)
        emitter.output.append(open)
    }

    /// What comes after the root container's children: its closing tag
    /// `close` and the document's end.
    static func closeDocument(_ output: inout ByteBuffer, close: StaticString) {
        output.append(close)
        output.append("</plist>\n")
    }
}

extension XMLPlistEmitter {
    /// Writes the children at offsets `range` of the root container `root`, one level in.
    mutating func emitChildren(of root: PropertyListValue, _ range: Range<Int>) throws {
        switch root {
        case .array(let elements): try emitElements(elements, range, indent: 1)
        case .dictionary(let entries): try emitEntries(entries, range, indent: 1)
        default: break
        }
    }
}
