import Glibc
import SumiKit
import SumiPage

/// A temporary folder of this process for the PDFs written.
let folder: String = {
    var template = Array("/tmp/sumi-fuzz-pdf-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) } ?? "/tmp"
}()

/// Runs `qpdf --check` on `path`; its exit status (0: clean, 2: errors, 3: warnings).
func qpdfCheck(_ path: String) -> Int32 {
    var pid = pid_t()
    let arguments = ["qpdf", "--check", path]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard posix_spawnp(&pid, "qpdf", &actions, nil, &argv, environ) == 0 else { return 0 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xFF
}

/// The PDF writer on random images and parameters: whatever it writes must pass `qpdf --check`
/// with neither errors nor warnings (a finding aborts).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPDF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let pages = input.int(1...3)
    let scale = [0.01, 0.5, 1, 2, 72, 1000][input.int(0...5)]
    let compression = ["auto", "flate", "jpeg"][input.int(0...2)]
    let viewport = input.int(0...3)
    let title = String(decoding: (0..<input.int(0...12)).map { _ in input.byte() }, as: UTF8.self)
    let vx = input.int(0...80), vy = input.int(0...80), vw = input.int(1...80), vh = input.int(1...80)
    var images: [Image] = []
    for _ in 0..<pages { images.append(input.image(maxSide: 48)) }
    let path = "\(folder)/out.pdf"
    var parameters: [String: ParamValue] = ["path": .path(path), "scale": .number(scale),
                                            "compression": .string(compression), "title": .string(title)]
    if viewport == 1 { parameters["viewport"] = .rect(Rect(x: Double(vx), y: Double(vy), width: Double(vw), height: Double(vh))) }
    if viewport == 2 { parameters["viewport"] = .string("capture:0") }
    unlink(path)
    guard (try? StageHarness(PDFPageStage.self).run(parameters, inputs: ["in": .images(ImageList(images))])) != nil else { return 0 }
    let status = qpdfCheck(path)
    if status != 0 {
        let kept = "\(folder)/finding-\(getpid()).pdf"
        rename(path, kept)
        print("qpdf --check exit \(status) on \(kept)")
        abort()
    }
    return 0
}
