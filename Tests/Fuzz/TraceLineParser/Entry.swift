// libFuzzer entry for the trace decoder, which reads every line a page writes on fd 3. Built and run by
// `scripts/fuzz.sh`, never by `swift build`.
import PageProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceLineParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let line = UnsafeBufferPointer(start: start, count: count)
    guard case .success(let event) = TraceLineParser.parse(line) else { return 0 }
    // What the decoder accepts, the page's encoder writes back as a line the decoder reads as the same event.
    // A queue label reaches the encoder as a C string, so a label with a NUL in it cannot come back whole.
    guard !event.queue.utf8.contains(0) else { return 0 }
    var encoded = event.encoded()
    precondition(encoded.last == UInt8(ascii: "\n"), "an encoded line ends with its newline")
    encoded.removeLast()
    guard case .success(let again) = TraceLineParser.parse(encoded) else {
        preconditionFailure("the encoding of an accepted line is refused: \(String(decoding: encoded, as: UTF8.self))")
    }
    if case .crash(_, _, _, let pc, let address, _) = event.kind, max(pc, address) > UInt64(Int.max) {
        // Documented: an address past 2^63 is written as a JSON number, so it comes back as the nearest double.
        // It must then be stable.
        precondition(TraceLineParser.parse(again.encoded().dropLast()) == .success(again),
                     "an address past 2^63 does not settle: \(event) into \(again)")
        return 0
    }
    precondition(again == event, "round trip changed \(event) into \(again)")
    return 0
}
