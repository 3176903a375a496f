import Store
import Testing

@Suite struct ObjectModelTests {
    @Test func attributeTypesRoundTripTheirModelFileNames() {
        for type in AttributeType.allCases {
            #expect(AttributeType(modelFileName: type.modelFileName) == type)
        }
    }
}
