import CHarfBuzz

/// The Unicode script of each scalar, with Common and Inherited characters (spaces, punctuation,
/// marks) taking the script of the text around them so they shape with it.
enum ScriptItemizer {
    static func scripts(_ scalars: [UInt32]) -> [hb_script_t] {
        let funcs = hb.hb_unicode_funcs_get_default()
        var raw = scalars.map { hb.hb_unicode_script(funcs, $0) }
        func isWeak(_ s: hb_script_t) -> Bool {
            s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
        }
        var last: hb_script_t?
        for i in raw.indices {
            if isWeak(raw[i]) {
                if let last { raw[i] = last }
            } else {
                last = raw[i]
            }
        }
        // Leading weak characters take the first real script.
        if let first = raw.firstIndex(where: { !isWeak($0) }) {
            for i in 0..<first { raw[i] = raw[first] }
        }
        return raw
    }
}
