import Testing
@Test func placeholderTransformTests() { #expect(Bool(true)) }
