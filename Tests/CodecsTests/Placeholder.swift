import Testing
@Test func placeholderCodecsTests() { #expect(Bool(true)) }
