import Testing
@Test func placeholderComposeTests() { #expect(Bool(true)) }
