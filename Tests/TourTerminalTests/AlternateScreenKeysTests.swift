import Testing
import TourInterface
@testable import TourTerminal

/// The raw keys of the screens drawn with escapes (`tour notes`, a level played, `tour room`): one decoding for all.
@Suite("Raw keys on the alternate screen", .bodiesBelowTheRunner)
struct AlternateScreenKeysTests {
    @Test func arrowsAndPagesByTheirSequencesCtrlCAndCtrlDAsQAndEveryKeyOfARead() {
        let bytes = Array("1\u{1B}[Aq\u{03}\u{1B}[6~\u{04}\u{1B}[B\u{1B}[5~2".utf8)
        #expect(AlternateScreen.keys(in: bytes) == [.character("1"), .up, .character("q"), .character("q"), .pageDown,
                                                     .character("q"), .down, .pageUp, .character("2")])
    }
}
