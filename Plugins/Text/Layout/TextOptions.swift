/// The `direction` parameter: the paragraph base direction, or `auto` from the first strong character.
enum TextDirection: String, Sendable {
    case auto, ltr, rtl
}

/// The `align` parameter, relative to each paragraph's direction.
enum TextAlignment: String, Sendable {
    case start, center, end
}
