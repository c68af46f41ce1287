import SumiKit

/// The `direction` parameter: the paragraph base direction, or `auto` from the first strong character.
enum TextDirection: String, Sendable, CaseIterable, ParameterChoice {
    case auto, ltr, rtl
}

/// The `align` parameter, relative to each paragraph's direction.
enum TextAlignment: String, Sendable, CaseIterable, ParameterChoice {
    case start, center, end
}

/// The `writing-mode` parameter.
enum WritingMode: String, Sendable, CaseIterable, ParameterChoice {
    case horizontalTB = "horizontal-tb", verticalRL = "vertical-rl"
}

/// The `text-orientation` parameter (vertical text only).
enum TextOrientation: String, Sendable, CaseIterable, ParameterChoice {
    case mixed, upright
}
