// libFuzzer entry for the reset manifest parser: reset writes a file for each name a manifest lists, so whatever
// it accepts must stay inside the page's folder. Built and run by `scripts/fuzz.sh`, never by `swift build`.
import Foundation
import TourCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResetManifest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    guard let manifest = try? PageFileManifest.parse(data, folder: "01-Operation", mainFile: "main.swift") else { return 0 }
    for entry in manifest.entries {
        let name = entry.name
        precondition(!name.contains("/") && name != "." && name != ".." && name.hasSuffix(".swift") && !name.contains("\0"),
                     "accepted an unsafe name '\(name)'")
        let resolved = URL(fileURLWithPath: "/page").appendingPathComponent(name).standardizedFileURL.path
        precondition(resolved.hasPrefix("/page/") && !resolved.dropFirst(6).contains("/"), "'\(name)' leaves the folder: \(resolved)")
    }
    precondition(manifest.entries.contains { $0.name == "main.swift" }, "accepted a manifest without main.swift")
    // What was accepted is written back as the same manifest.
    let again = try? PageFileManifest.parse(Data(manifest.text.utf8), folder: "01-Operation", mainFile: "main.swift")
    precondition(again == manifest, "round trip changed \(manifest) into \(String(describing: again))")
    return 0
}
