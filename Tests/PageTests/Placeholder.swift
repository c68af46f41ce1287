import Testing
@Test func placeholderPageTests() { #expect(Bool(true)) }
