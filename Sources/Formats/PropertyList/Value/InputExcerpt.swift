/// Input quoted in an error message, cut to a readable length: a message
/// must say where and what went wrong, not echo a 100,000-digit number.
public enum InputExcerpt {
    /// The most characters of input a message quotes.
    public static let maximumLength = 64

    /// `text` in double quotes; longer than ``maximumLength`` characters, its
    /// start, an ellipsis and its full length.
    public static func quoted(_ text: some StringProtocol) -> String {
        guard text.count > maximumLength else { return "\"\(text)\"" }
        return "\"\(text.prefix(maximumLength))…\" (\(text.count) characters)"
    }
}
