import SumiKit

/// How `blend` mixes a layer's colour with the image under it.
///
/// Notation (W3C Compositing and Blending Level 1, §5 and §9): `Cs`, `Cb` are the straight source
/// (layer) and backdrop (base) colours, `αs`, `αb` their alphas, `cs = αs·Cs` and `cb = αb·Cb` the
/// premultiplied values Sumi stores, all in 0…1. A separable mode is a blend function `B(Cb, Cs)`
/// per channel; the blended colour is composited over the backdrop with source-over:
///
///     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)
///     αo = αs + αb·(1 − αs)
///
/// The last term needs no division in premultiplied form (`αs·αb·B` is written with `cs`, `cb`):
///
/// | mode       | B(Cb, Cs)                                   | αs·αb·B                                   |
/// |------------|---------------------------------------------|-------------------------------------------|
/// | `over`     | Cs                                          | cs·αb                                     |
/// | `multiply` | Cb·Cs                                       | cs·cb                                     |
/// | `screen`   | Cb + Cs − Cb·Cs                             | cs·αb + cb·αs − cs·cb                     |
/// | `overlay`  | Cb ≤ ½: 2·Cb·Cs; else screen(Cs, 2·Cb − 1)  | 2cb ≤ αb: 2·cs·cb; else αs·αb − 2(αb − cb)(αs − cs) |
/// | `darken`   | min(Cb, Cs)                                 | min(cs·αb, cb·αs)                         |
/// | `lighten`  | max(Cb, Cs)                                 | max(cs·αb, cb·αs)                         |
///
/// `add` is not a Level 1 blend mode; it is the Porter-Duff *plus* operator (Compositing Level 2's
/// `plus-lighter`, canvas `lighter`, libvips `add`): `co = min(1, cs + cb)`, `αo = min(1, αs + αb)`.
///
/// `opacity` scales the layer's premultiplied colour and alpha before any of this.
public enum BlendMode: String, Sendable, Hashable, CaseIterable, ParameterChoice {
    case over, multiply, screen, overlay, darken, lighten, add
}
