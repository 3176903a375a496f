/// What a text parser (OpenStep, JSON) makes of what it reads; see
/// ``TextPropertyListParser``. A static choice, so each parser is compiled
/// once per use and the decoder pays nothing for the validator.
protocol TextParseOutput {
    /// Whether values are built.
    static var buildsValues: Bool { get }
}

/// Decoding: strings, data and containers are made.
enum DecodedText: TextParseOutput {
    static var buildsValues: Bool { true }
}

/// Validating (`sandbox plist -lint`): every byte is checked as for
/// decoding, and nothing is kept.
enum ValidatedText: TextParseOutput {
    static var buildsValues: Bool { false }
}
