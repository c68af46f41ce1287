import CFreeType
import CHarfBuzz
import SumiKit

/// The `variations` parameter: variable-font axis values, "wght=700, wdth=85", applied to shaping
/// (HarfBuzz) and outlines (FreeType) alike.
struct FontVariations: Sendable {
    var values: [hb_variation_t] = []

    var isEmpty: Bool { values.isEmpty }

    /// A cache key: the axes and values in order.
    var key: String { values.map { "\($0.tag)=\($0.value)" }.joined(separator: ",") }

    init() {}

    init(parsing text: String) throws(StageError) {
        for part in text.split(separator: ",") {
            let item = String(part).trimming(" ")
            guard !item.isEmpty else { continue }
            var v = hb_variation_t()
            guard hb.hb_variation_from_string(item, Int32(item.utf8.count), &v) != 0, v.value.isFinite else {
                throw StageError.invalidParameter("variations", "\"\(item)\" is not an axis setting "
                    + "(expected a tag and a value such as \"wght=700\" or \"wdth=85\")")
            }
            values.append(v)
        }
        guard values.count <= 64 else {
            throw StageError.invalidParameter("variations", "\(values.count) axis settings; at most 64")
        }
    }

    /// Sets the FreeType face's design coordinates: each axis at its setting, else its default.
    func apply(to face: FT_Face, library: FT_Library) {
        var master: UnsafeMutablePointer<FT_MM_Var>?
        guard ft.FT_Get_MM_Var(face, &master) == 0, let mm = master else { return }
        defer { _ = ft.FT_Done_MM_Var(library, mm) }
        let count = Int(mm.pointee.num_axis)
        guard count > 0, let axes = mm.pointee.axis else { return }
        var coords = [FT_Fixed](repeating: 0, count: count)
        for i in 0..<count {
            let axis = axes[i]
            coords[i] = axis.def
            if let setting = values.last(where: { FT_ULong($0.tag) == axis.tag }) {
                let fixed = FT_Fixed((Double(setting.value) * 65536).rounded())
                coords[i] = min(max(fixed, axis.minimum), axis.maximum)
            }
        }
        _ = ft.FT_Set_Var_Design_Coordinates(face, FT_UInt(count), &coords)
    }
}
