// libFuzzer entry for the build-diagnostics parser, which reads whatever `swift build` prints about a learner's edit.
// Built and run by `scripts/fuzz.sh`, never by `swift build`.
import TourCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBuildDiagnostics(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let output = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let parsed = BuildDiagnostics.parse(output)
    // The interface places a message on its line and the editor opens at its column: both count from 1.
    for diagnostic in parsed.diagnostics.flatMap({ [$0] + $0.notes }) {
        precondition(diagnostic.line >= 1 && diagnostic.column >= 1, "\(diagnostic.shortDescription)")
        _ = diagnostic.shortDescription
    }
    return 0
}
