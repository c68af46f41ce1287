import SumiKit

/// What `stitch` tells the run report (`sumi run --json`: the stage's `details`).
///
/// `captures` lists the captures on the page, top to bottom (as `capture:N` counts them): each one's
/// `input` file (null when not read from a file), `index` in the order given, `offset` (the y of its
/// top in the stitched image), `overlap` (rows of its scrolling region it shares with the capture
/// above) and `confidence` in that join (`OverlapFinder.Match`: 1 for the top capture, 0 after a
/// gap, null for offsets given). Then whether the captures were `reordered`, the exact duplicates
/// `dropped` (`input`, `index`, and `of`: the index of the capture each repeats), the number of
/// `gaps` joined below a separator, and the fixed bars' rows (`header`, `footer`).
struct StitchReport {
    let plan: StitchPlanner.Plan

    init(_ plan: StitchPlanner.Plan) { self.plan = plan }

    var json: JSONValue {
        let layout = plan.layout
        let captures = plan.order.indices.map { k -> JSONValue in
            var overlap = 0
            var confidence = JSONValue.null
            switch plan.joins?[k] {
            case .top?: confidence = .number(1)
            case .gap?: confidence = .number(0)
            case .overlap(let match)?:
                overlap = match.rows
                confidence = .number((match.confidence * 1000).rounded() / 1000)
            case nil where k > 0:
                let above = layout.scrollingRows(of: k - 1), rows = layout.scrollingRows(of: k)
                overlap = max(0, min(above.upperBound, rows.upperBound) - max(above.lowerBound, rows.lowerBound))
            case nil: break
            }
            return .object([("input", file(plan.order[k])), ("index", .number(Double(plan.order[k]))),
                            ("offset", .number(Double(layout.offsets[k]))), ("overlap", .number(Double(overlap))),
                            ("confidence", confidence)])
        }
        let dropped = plan.duplicates.map { duplicate -> JSONValue in
            .object([("input", file(duplicate.index)), ("index", .number(Double(duplicate.index))), ("of", .number(Double(duplicate.of)))])
        }
        let gaps = plan.joins?.filter { $0 == .gap }.count ?? 0
        return .object([("captures", .array(captures)), ("reordered", .bool(plan.order != plan.order.sorted())),
                        ("dropped", .array(dropped)), ("gaps", .number(Double(gaps))),
                        ("header", .number(Double(layout.header))), ("footer", .number(Double(layout.footer)))])
    }

    private func file(_ i: Int) -> JSONValue {
        guard i < plan.files.count, let file = plan.files[i] else { return .null }
        return .string(file)
    }
}
