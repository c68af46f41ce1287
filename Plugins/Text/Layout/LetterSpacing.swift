import CHarfBuzz

/// `letter-spacing` as CSS Text 3 asks: extra space after each grapheme cluster, except in cursive
/// scripts, whose letters join and would be torn apart (nor is a tatweel inserted instead). The
/// cursive scripts are those Unicode gives joining forms (ArabicShaping.txt): Arabic, Syriac, N'Ko,
/// Mongolian, Phags-pa, Mandaic, Manichaean, Psalter Pahlavi, Adlam, Hanifi Rohingya, Sogdian,
/// Chorasmian and Old Uyghur. A cluster takes the script of its text (spaces and punctuation that of
/// the words around them), so an Arabic phrase keeps its joins and its word spaces while Latin
/// beside it is spaced.
enum LetterSpacing {
    static let cursiveScripts: [hb_script_t] = [
        HB_SCRIPT_ARABIC, HB_SCRIPT_SYRIAC, HB_SCRIPT_NKO, HB_SCRIPT_MONGOLIAN, HB_SCRIPT_PHAGS_PA, HB_SCRIPT_MANDAIC,
        HB_SCRIPT_MANICHAEAN, HB_SCRIPT_PSALTER_PAHLAVI, HB_SCRIPT_ADLAM, HB_SCRIPT_HANIFI_ROHINGYA, HB_SCRIPT_SOGDIAN,
        HB_SCRIPT_CHORASMIAN, HB_SCRIPT_OLD_UYGHUR,
    ]

    /// Whether letters of `script` join, so are never spaced apart.
    static func isCursive(_ script: hb_script_t) -> Bool {
        cursiveScripts.contains(script)
    }

    /// The space after each cluster (clusters start at the scalar offsets `clusterStarts`):
    /// `spacing`, or none after a cluster of a cursive script (`scripts`: one per scalar, as
    /// `ScriptItemizer` resolves them).
    static func perCluster(_ spacing: Double, clusterStarts: [Int], scripts: [hb_script_t]) -> [Double] {
        clusterStarts.map { start in
            spacing == 0 || (start < scripts.count && isCursive(scripts[start])) ? 0 : spacing
        }
    }
}
