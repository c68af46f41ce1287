import SumiKit

/// Which image of a HEIF or AVIF file Sumi decodes and how many pixels libheif makes for it,
/// worked out from the item graph before anything is decoded.
///
/// libheif sizes an image handle by its `ispe` property, but decodes a `grid` or `iovl` item at
/// the canvas its data declares, tile by tile, so a 64×64 `ispe` can hide a 30000×30000 canvas.
/// The plan counts what libheif makes: for each grid or overlay the larger of its canvas and its
/// inputs, every tile or overlay input counted once per reference (one tile referenced 40000 times
/// is decoded 40000 times), plus the alpha image; that count is what `max-pixels` bounds. A grid
/// photo's tiles cover its canvas, so it counts about its own size (a 48 MP phone HEIC passes
/// `--safe`'s 50 MP cap), while a canvas or a tile count larger than the limit is refused, whatever
/// the `ispe` says.
struct HEIFDecodePlan {
    /// The item decoded: the primary item (`pitm`) when it is a top-level image, otherwise the
    /// top-level image with the lowest id, which is what `heif-convert` writes first.
    let item: Int
    /// The decoded size (a derived item's canvas, turned by `irot`; `clap` can only crop it).
    let width: Int, height: Int
    /// Every pixel decoded on the way, the image itself included.
    let pixelsDecoded: Int
    /// Set when `pitm` names another item than `item`: the `pitm` field to point at `item` in a
    /// copy of the file before libheif reads it.
    let primaryPatch: (offset: Int, width: Int)?
    /// The alpha image is AV1 coded in limited range (16…235), which libheif passes on as it is.
    let alphaInLimitedRange: Bool

    /// Item types libheif decodes as images.
    static let imageTypes: Set = ["hvc1", "av01", "vvc1", "grid", "iovl", "iden"]
    /// Auxiliary types that make an alpha plane.
    static let alphaTypes: Set = ["urn:mpeg:avc:2015:auxid:1", "urn:mpeg:hevc:2015:auxid:1",
                                  "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"]
    /// libheif addresses plane rows with `int`: 8 bytes a pixel (16-bit RGBA) must stay below 2 GiB.
    static let libheifPixels = (1 << 31) / 8 - 1
    /// Derived items nested deeper than this are refused (libheif recurses once per level).
    static let maxDepth = 16

    /// Refuses a plan decoding more than `maxPixels` pixels, naming `max-pixels`.
    init(_ graph: HEIFItemGraph, maxPixels: Int) throws(StageError) {
        let thumbnailsAndAuxiliaries = Set(graph.references.filter { $0.type == "thmb" || $0.type == "auxl" }.map(\.from))
        let topLevel = graph.items.keys.sorted().filter { id in
            guard let item = graph.items[id] else { return false }
            return Self.imageTypes.contains(item.type) && !item.hidden && !thumbnailsAndAuxiliaries.contains(id)
        }
        guard let first = topLevel.first else { throw StageError("file holds no top-level image ('iinf' box)") }
        let chosen = graph.primary.flatMap { topLevel.contains($0) ? $0 : nil } ?? first
        item = chosen
        primaryPatch = graph.primary == chosen ? nil : graph.primaryField.flatMap { field in
            field.width == 4 || chosen <= 0xFFFF ? field : nil
        }
        let alphaItem = graph.references.first { reference in
            reference.type == "auxl" && reference.to.contains(chosen) && graph.properties[reference.from, default: []].contains { property in
                if case .auxiliaryType(let type) = property { return Self.alphaTypes.contains(type) }
                return false
            }
        }?.from
        // An alpha item not turned, mirrored and cropped as its colour item is dropped by libheif
        // (1.15: the image comes out opaque); refused rather than decoded without its alpha.
        if let alphaItem {
            func transforms(_ id: Int) -> [String] {
                graph.properties[id, default: []].compactMap { property -> String? in
                    switch property {
                    case .rotation(let turns): turns % 4 == 0 ? nil : "irot \(turns * 90)°"
                    case .mirror: "imir"
                    case .cleanAperture: "clap"
                    default: nil
                    }
                }
            }
            let colour = transforms(chosen), alpha = transforms(alphaItem)
            guard colour == alpha else {
                throw StageError("colour item \(chosen) is transformed (\(colour.isEmpty ? "none" : colour.joined(separator: ", "))) "
                                 + "but its alpha item \(alphaItem) is not alike (\(alpha.isEmpty ? "none" : alpha.joined(separator: ", "))): "
                                 + "libheif would drop the alpha, so the file is refused rather than decoded opaque", cause: .unsupported)
            }
        }
        // The sequence header is in `av1C` or, as libheif writes it, at the start of the data.
        alphaInLimitedRange = try alphaItem.map { alpha throws(StageError) in
            var obus = graph.properties[alpha, default: []].compactMap { property -> [UInt8]? in
                if case .av1Configuration(let obus) = property { return obus }
                return nil
            }
            guard !obus.isEmpty else { return false }
            if let data = try graph.data(of: alpha, limit: 512) { obus.append(data) }
            return obus.lazy.compactMap { AV1SequenceHeader(obus: $0) }.first?.fullRange == false
        } ?? false

        var costs = Costs(graph: graph)
        let cost = try costs.cost(of: chosen, depth: 0)
        width = cost.width
        height = cost.height
        pixelsDecoded = cost.pixels
        let limit = min(maxPixels, Self.libheifPixels)
        guard pixelsDecoded <= limit else {
            let type = graph.items[chosen]?.type ?? "?"
            let what = cost.parts.isEmpty ? "" : " (\(cost.parts))"
            let beyond = maxPixels > Self.libheifPixels ? "; libheif can address \(Self.libheifPixels)" : ""
            let count = pixelsDecoded == Int.max ? "too many" : String(pixelsDecoded)
            throw StageError.limit("image is \(width)x\(height), item \(chosen) ('\(type)'), and decoding it makes \(count) pixels\(what), more than max-pixels \(maxPixels)\(beyond)")
        }
    }

    /// What one item takes to decode.
    struct Cost {
        var width: Int, height: Int, pixels: Int
        /// How a derived item's pixels add up, for the error message.
        var parts = ""
    }

    /// Costs of items, each worked out once (a tile referenced many times is looked at once).
    private struct Costs {
        let graph: HEIFItemGraph
        /// `dimg` references by the item derived, and alpha images by the item they belong to,
        /// indexed once: looking them up per item would take items × references steps.
        let sources: [Int: [Int]]
        let alphas: [Int: [Int]]
        var known: [Int: Cost] = [:]
        var inProgress: Set<Int> = []

        init(graph: HEIFItemGraph) {
            self.graph = graph
            var sources: [Int: [Int]] = [:], alphas: [Int: [Int]] = [:]
            for reference in graph.references {
                if reference.type == "dimg" { sources[reference.from, default: []] += reference.to }
                guard reference.type == "auxl", graph.properties[reference.from, default: []].contains(where: { property in
                    if case .auxiliaryType(let type) = property { return HEIFDecodePlan.alphaTypes.contains(type) }
                    return false
                }) else { continue }
                for item in Set(reference.to) where item != reference.from { alphas[item, default: []].append(reference.from) }
            }
            self.sources = sources
            self.alphas = alphas
        }

        mutating func cost(of id: Int, depth: Int) throws(StageError) -> Cost {
            if let cost = known[id] { return cost }
            guard !inProgress.contains(id) else { throw StageError("'iref' box: item \(id) is derived from itself") }
            guard depth <= HEIFDecodePlan.maxDepth else {
                throw StageError("'iref' box: items derived more than \(HEIFDecodePlan.maxDepth) levels deep")
            }
            guard let item = graph.items[id] else { throw StageError("'iref' box: item \(id) is referenced but not listed in 'iinf'") }
            inProgress.insert(id)
            defer { inProgress.remove(id) }
            var cost: Cost
            switch item.type {
            case "grid", "iovl":
                cost = try derived(id, type: item.type, depth: depth)
            case "iden":
                let sources = self.sources[id, default: []]
                guard sources.count == 1 else { throw StageError("'iden' item \(id) derives from \(sources.count) images (1 expected)") }
                cost = try self.cost(of: sources[0], depth: depth + 1)
            case let type where HEIFDecodePlan.imageTypes.contains(type):
                guard let size = size(of: id) else { throw StageError("'\(type)' item \(id) has no 'ispe' property (its size)") }
                cost = Cost(width: size.width, height: size.height, pixels: Self.product(size.width, size.height))
            default:
                throw StageError("item \(id) ('\(item.type)') is used as an image but is none")
            }
            let turns = graph.properties[id, default: []].reduce(0) { turns, property in
                if case .rotation(let quarters) = property { return turns + quarters }
                return turns
            }
            if turns % 2 == 1 { swap(&cost.width, &cost.height) }
            // The alpha plane libheif decodes with the image (the largest, should there be several).
            var alpha = 0
            for source in alphas[id, default: []] {
                alpha = max(alpha, try self.cost(of: source, depth: depth + 1).pixels)
            }
            cost.pixels = Self.sum(cost.pixels, alpha)
            known[id] = cost
            return cost
        }

        /// A grid's or overlay's canvas, from its data, plus its inputs.
        mutating func derived(_ id: Int, type: String, depth: Int) throws(StageError) -> Cost {
            let sources = self.sources[id, default: []]
            guard let data = try graph.data(of: id, limit: 20 + 8 * sources.count) else {
                throw StageError("'\(type)' item \(id) has no data ('iloc' box)")
            }
            func field(_ at: Int, _ size: Int) throws(StageError) -> Int {
                guard at + size <= data.count else { throw StageError("'\(type)' item \(id): its data is truncated (\(data.count) bytes)") }
                return data[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) }
            }
            let wide = try field(1, 1) & 1 != 0 ? 4 : 2
            let width: Int, height: Int
            if type == "grid" {
                let rows = try field(2, 1) + 1, columns = try field(3, 1) + 1
                (width, height) = (try field(4, wide), try field(4 + wide, wide))
                guard sources.count == rows * columns else {
                    throw StageError("'grid' item \(id) has \(rows)x\(columns) tiles but \(sources.count) 'dimg' references")
                }
            } else {
                (width, height) = (try field(10, wide), try field(10 + wide, wide))
                // libheif 1.15 reads past an input placed above the canvas (a fuzzing finding), and
                // its clipping of inputs left of it is the same code: such offsets are refused.
                for (index, source) in sources.enumerated() {
                    let at = 10 + 2 * wide + 2 * wide * index
                    guard at + 2 * wide <= data.count else { break }  // libheif refuses short data itself
                    let sign = 1 << (8 * wide - 1)
                    let x = try field(at, wide), y = try field(at + wide, wide)
                    if x & sign != 0 || y & sign != 0 {
                        throw StageError("'iovl' item \(id) places image \(source) at (\(x & sign != 0 ? x - 2 * sign : x),"
                                         + "\(y & sign != 0 ? y - 2 * sign : y)), above or left of its canvas: not supported")
                    }
                }
            }
            guard width > 0, height > 0 else { throw StageError("'\(type)' item \(id) declares an empty \(width)x\(height) canvas") }
            var inputPixels = 0
            var inputs: [Int: Int] = [:]
            for source in sources {
                inputPixels = Self.sum(inputPixels, try cost(of: source, depth: depth + 1).pixels)
                inputs[source, default: 0] += 1
            }
            let pixels = max(Self.product(width, height), inputPixels)
            let first = sources.first.flatMap { known[$0] }
            let kind = type == "grid" ? "grid canvas" : "overlay canvas"
            let noun = type == "grid" ? "tile" : "image"
            var parts = "a \(width)x\(height) \(kind) and \(sources.count) \(noun)\(sources.count == 1 ? "" : "s")"
            if let first { parts += " of \(first.width)x\(first.height)" }
            if inputs.count < sources.count { parts += " (\(inputs.count) distinct)" }
            return Cost(width: width, height: height, pixels: pixels, parts: parts)
        }

        func size(of id: Int) -> (width: Int, height: Int)? {
            for case .size(let width, let height) in graph.properties[id, default: []] { return (width, height) }
            return nil
        }

        static func product(_ a: Int, _ b: Int) -> Int {
            let (value, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? Int.max : value
        }

        static func sum(_ a: Int, _ b: Int) -> Int {
            let (value, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : value
        }
    }
}
