import Testing
@Test func placeholderSumiKitTests() { #expect(Bool(true)) }
