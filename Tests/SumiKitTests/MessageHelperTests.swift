import SumiKit
import Testing

/// The one "did you mean" rule and the one trim every module uses.
@Suite struct MessageHelperTests {
    @Test func suggestionsFollowOneRule() {
        let commands = ["run", "validate", "stages", "inspect", "schema", "graph", "formats", "completion", "serve"]
        #expect(NameSuggestion.closest("rnu", in: commands) == "run")          // a swap is one edit
        #expect(NameSuggestion.closest("VALIDATE", in: commands) == "validate") // case is ignored
        #expect(NameSuggestion.closest("comp", in: commands) == "completion")   // a unique prefix
        #expect(NameSuggestion.closest("s", in: commands) == nil)               // prefix of three: none
        #expect(NameSuggestion.closest("ab", in: ["pad"]) == nil)               // short names: one edit at most
        #expect(NameSuggestion.closest("pd", in: ["pad"]) == "pad")
        #expect(NameSuggestion.closest("", in: commands) == nil)
        let long = String(repeating: "x", count: 1 << 20)
        #expect(NameSuggestion.closest(long, in: commands) == nil)
        #expect(NameSuggestion.hint("sacle", in: ["scale", "crop"]) == " (did you mean \"scale\"?)")
        #expect(NameSuggestion.hint("zzzzzz", in: ["scale", "crop"]) == "")
    }

    @Test func trimmingRemovesOnlyTheGivenCharactersAtBothEnds() {
        #expect(" \t a b \r\n".trimmingWhitespace() == "a b")
        #expect(" \"Noto Sans\" ".trimming(" \"'") == "Noto Sans")
        #expect("RGB ".trimming(" ") == "RGB")
        #expect("   ".trimming(" ") == "")
        #expect("x\t".trimming(" ") == "x\t")
        #expect(Substring("  y ").trimmingWhitespace() == "y")
    }
}
