import Foundation
import Testing

/// What every command pays before it does anything: the shared libraries the binary maps at
/// start-up. Those only some runs need are opened when first used (`sumi_dl_open_table`):
/// libmicrohttpd (and GnuTLS with the libraries behind it) when `sumi serve` starts, libheif on the
/// first HEIF or AVIF file, gdk-pixbuf on a format only its loaders read. `make bench`'s start-up
/// row measures the time beside a hello-world Swift program.
@Suite struct StartUpTests {
    @Test func librariesOnlySomeRunsNeedAreNotMappedAtStartUp() throws {
        // ldd lists every library the loader maps at start-up, those the binary's libraries need included.
        let listing = try #require(CLI.tool("/usr/bin/ldd", [CLI.binary]))
        let names = String(decoding: listing, as: UTF8.self).split(separator: "\n")
            .compactMap { $0.split(separator: " ").first.map { String($0.trimmingCharacters(in: .whitespaces)) } }
        #expect(names.contains { $0.hasPrefix("libswiftCore") } && names.contains { $0.hasPrefix("libjpeg") }, "\(names)")
        for lazy in ["libmicrohttpd", "libgnutls", "libp11-kit", "libheif", "libgdk_pixbuf"] {
            #expect(!names.contains { $0.hasPrefix(lazy) }, "\(lazy) is mapped at start-up: \(names)")
        }
        print("sumi maps \(names.count) libraries at start-up")
    }
}
