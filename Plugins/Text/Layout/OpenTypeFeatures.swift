import CHarfBuzz
import SumiKit

/// The `features` parameter: OpenType features in HarfBuzz's (and CSS's) syntax, separated by
/// commas: "palt, -liga", "ss01", "cv01=2", "kern[3:5]".
enum OpenTypeFeatures {
    static func parse(_ text: String) throws(StageError) -> [hb_feature_t] {
        var features: [hb_feature_t] = []
        for part in text.split(separator: ",") {
            let item = String(part).trimming(" ")
            guard !item.isEmpty else { continue }
            var feature = hb_feature_t()
            guard hb.hb_feature_from_string(item, Int32(item.utf8.count), &feature) != 0 else {
                throw StageError.invalidParameter("features", "\"\(item)\" is not an OpenType feature "
                    + "(expected a tag such as \"palt\", \"-liga\", \"ss01\" or \"cv01=2\")")
            }
            features.append(feature)
        }
        guard features.count <= 64 else {
            throw StageError.invalidParameter("features", "\(features.count) features; at most 64")
        }
        return features
    }
}
