extension PropertyListInteger {
    /// Parses an optionally signed (`+` or `-`) run of decimal digits, as
    /// GNUstep's `<*I…>` and JSON integers hold; `nil` when the text is
    /// not of that form or the value is outside −2⁶³ … 2⁶⁴−1.
    init?(decimalText text: UnsafeRawBufferPointer) {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < text.count else { return nil }
        var magnitude: UInt64 = 0
        while index < text.count {
            let digit = text[index] &- 0x30
            guard digit < 10 else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        if !negative || magnitude == 0 {
            self.init(magnitude)
        } else {
            // Int64.min's magnitude, 2⁶³, is the largest negative magnitude.
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            self.init(Int64(bitPattern: 0 &- magnitude))
        }
    }
}
