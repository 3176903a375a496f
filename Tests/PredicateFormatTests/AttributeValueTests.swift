import PredicateFormat
import Testing

@Suite struct AttributeValueTests {
    @Test func valuesCompareByCase() {
        #expect(AttributeValue.integer(1) != .double(1))
        #expect(AttributeValue.collection([.null]) == .collection([.null]))
    }
}
