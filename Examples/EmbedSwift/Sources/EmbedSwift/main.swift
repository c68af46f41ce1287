// Captions a photo and makes a full page from screenshots with Sumi's library, in this process:
//
//     swift run EmbedSwift SUMI_SOURCE_FOLDER OUTPUT_FOLDER
//
// The pipelines and samples are those Sumi ships (its `pipelines/` folder).
#if canImport(Glibc)
import Glibc
#endif
import SumiApp

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: EmbedSwift SUMI_SOURCE_FOLDER OUTPUT_FOLDER")
    exit(2)
}
let (sumi, out) = (arguments[1], arguments[2])
let session = Session()

do {
    // A caption drawn where it was placed on a 390x260 preview, onto the full-size photo.
    var caption = RunRequest(pipeline: sumi + "/pipelines/caption.json")
    caption.output = out + "/caption.jpg"
    caption.settings = [("text", "Hello from Swift"), ("offset", "0,70"), ("size", "24")]
    // Five phone screenshots become one tall PDF page, opening on the first screen.
    var page = RunRequest(pipeline: sumi + "/pipelines/fullpage.json")
    page.output = out + "/page.pdf"

    for request in [caption, page] {
        for outcome in try session.run(request) {
            let result = try outcome.result.get()
            for output in result.outputs {
                print("\(output.file.path): \(output.file.format), \(Int(output.file.width))x\(Int(output.file.height)), \(output.file.bytes) bytes")
            }
        }
    }
} catch {
    print("error: \(error)")
    exit(1)
}
