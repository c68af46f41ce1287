import Testing
@Test func placeholderTextTests() { #expect(Bool(true)) }
