import Foundation
import Testing
import PageProtocol
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

@Suite("Live view: frame decoding and state", .bodiesBelowTheRunner)
struct LiveViewStateTests {
    static func event(_ kind: EventKind) -> PageEvent {
        PageEvent(time: 1, thread: 1, queue: "", kind: kind)
    }

    static func picture(width: Int, height: Int, pixels: [UInt8]) -> PagePicture {
        PagePicture(width: width, height: height, base64: Data(pixels).base64EncodedString())
    }

    static func frameEvent(width: Int, height: Int, pixels: [UInt8]) -> PageEvent {
        event(.frame(picture(width: width, height: height, pixels: pixels)))
    }

    @Test func aGoodFrameDecodesToItsPixels() throws {
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]
        let frame = try LiveFrame.decode(Self.picture(width: 2, height: 2, pixels: pixels)).get()
        #expect(frame.width == 2 && frame.height == 2 && frame.pixels == pixels)
        #expect(frame.pixel(x: 1, y: 0) == (0, 255, 0))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 40, 100])
    func base64RoundTripsEveryLength(length: Int) {
        let bytes = (0..<length).map { UInt8(($0 * 71 + 3) & 255) }
        #expect(Base64Decoder.decode(Data(bytes).base64EncodedString()) == bytes)
    }

    @Test(arguments: [
        ("AAA", "not a multiple of four"), ("AA=A", "padding in the middle"), ("A===", "too much padding"),
        ("AA==AAAA", "padding before the end"), ("AA\nA", "a newline"), ("AAA*", "a byte outside the alphabet"),
        ("ÄÄÄÄ", "non-ASCII"), ("A*==", "a bad byte before two padding"), ("AA*=", "a bad byte before one padding"),
        ("AAAA=AAA", "padding in the middle of the last four"),
    ])
    func corruptBase64IsRefused(text: String, why: String) {
        #expect(Base64Decoder.decode(text) == nil, "\(why)")
    }

    @Test func badFramesAreCountedAndSkippedKeepingTheLastGoodOne() throws {
        var state = LiveViewState()
        let good: [UInt8] = [1, 2, 3]
        state.apply(Self.frameEvent(width: 1, height: 1, pixels: good))
        #expect(state.frame?.pixels == good)
        state.markDrawn()
        let bad: [PagePicture] = [
            Self.picture(width: 2, height: 1, pixels: good),                          // wrong size for its pixels
            PagePicture(width: 1, height: 1, base64: "AQ*D"),                         // corrupt, found only when decoded
            PagePicture(width: 1, height: 1, base64: nil),                            // no pixels
            PagePicture(width: 0, height: 1, base64: ""),
            PagePicture(width: 100_000, height: 100_000, base64: "AAAA"),
            PagePicture(width: nil, height: 1, base64: "AQID"),                       // `w` missing or not an integer
        ]
        for picture in bad { state.apply(Self.event(.frame(picture))) }
        // Five are refused on arrival; the corrupt one is as long as a good one, so it waits to be drawn.
        #expect(state.rejectedPictures == bad.count - 1)
        #expect(state.lastRejection == .badSize(width: nil, height: 1))
        #expect(state.framesReceived == 2)
        // Drawn, it turns out corrupt: the screen keeps the last good frame, and the next draw counts it.
        #expect(state.frame?.pixels == good)
        state.markDrawn()
        #expect(state.rejectedPictures == bad.count)
        #expect(state.lastRejection == .corruptPixels)
        #expect(state.frame?.pixels == good)
        state.markDrawn()
        #expect(state.rejectedPictures == bad.count, "a corrupt frame is counted once")
        let errors = bad.compactMap { if case .failure(let error) = LiveFrame.decode($0) { error } else { nil } }
        #expect(errors == [.wrongPixelCount(expected: 6, found: 3), .corruptPixels, .missingPixels,
                           .badSize(width: 0, height: 1), .badSize(width: 100_000, height: 100_000), .badSize(width: nil, height: 1)])
    }

    @Test func aFrameReplacedBeforeAnythingDrewItIsNeverDecoded() async throws {
        var state = LiveViewState()
        for value in 0..<1_000 {
            state.apply(Self.frameEvent(width: 2, height: 1, pixels: [UInt8(value & 255), 0, 0, 9, 9, 9]))
        }
        #expect(state.hasFrame && state.isActive)
        let before = state
        state.markDrawn()
        #expect(state.framesDecoded == 0, "nothing read the frame, so nothing was decoded")
        #expect(state.frameBytes == 8, "only the base64 of the newest frame is held")
        #expect(before.framesDecoded == 0)

        // The screen draws: only the newest frame is decoded, once, however often and from whichever copy it is read.
        let drawn = before
        #expect(drawn.frame?.pixels == [UInt8(999 & 255), 0, 0, 9, 9, 9])
        #expect(state.frame == drawn.frame)
        state.markDrawn()
        state.markDrawn()
        #expect(state.framesDecoded == 1)
        #expect(state.frameBytes == 8 + 6, "the base64 and its pixels, which are also the last good frame")

        state.apply(Self.frameEvent(width: 2, height: 1, pixels: [1, 1, 1, 2, 2, 2]))
        state.apply(Self.frameEvent(width: 2, height: 1, pixels: [3, 3, 3, 4, 4, 4]))
        state.markDrawn()
        #expect(state.framesDecoded == 1, "two more frames arrived and neither was drawn")
        #expect(state.framesReceived == 1_002 && state.framesDropped == 1_000)
    }

    @Test func theLazyFrameIsTheFrameAnEagerDecodeGives() async throws {
        let pixels = (0..<160 * 96 * 3).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let sent = Self.picture(width: 160, height: 96, pixels: pixels)
        var state = LiveViewState()
        state.apply(Self.event(.frame(sent)))
        let eager = try LiveFrame.decode(sent).get()
        let lazy = try #require(state.frame)
        #expect(lazy == eager)
        #expect(lazy.pixels == pixels)
    }

    @Test func framesFasterThanTheScreenAreDroppedNotQueued() {
        var state = LiveViewState()
        for value in 0..<1_000 {
            state.apply(Self.frameEvent(width: 1, height: 1, pixels: [UInt8(value & 255), 0, 0]))
        }
        // Nothing was drawn in between: the screen will draw the newest, all the others were dropped.
        #expect(state.framesReceived == 1_000)
        #expect(state.framesDropped == 999)
        #expect(state.frame?.pixels == [UInt8(999 & 255), 0, 0])
        state.markDrawn()
        state.apply(Self.frameEvent(width: 1, height: 1, pixels: [7, 7, 7]))
        #expect(state.framesDropped == 999)
        state.apply(Self.frameEvent(width: 1, height: 1, pixels: [8, 8, 8]))
        #expect(state.framesDropped == 1_000)
    }

    @Test func rowsHoldPlaceholdersAndPicturesAndFollowTheCount() throws {
        var state = LiveViewState()
        #expect(!state.isActive)
        state.apply(Self.event(.rows(count: 2)))
        state.apply(Self.event(.row(index: 0, caption: "0 coffee: placeholder", picture: nil, parts: nil)))
        state.apply(Self.event(.row(index: 1, caption: "1 rocket: filtered", picture: Self.picture(width: 1, height: 1, pixels: [4, 5, 6]),
                                    parts: nil)))
        #expect(state.isActive)
        #expect(state.rows.map(\.caption) == ["0 coffee: placeholder", "1 rocket: filtered"])
        #expect(state.rows[0].picture == nil)
        #expect(state.rows[1].picture?.pixels == [4, 5, 6])

        // A row whose picture is corrupt keeps what it showed; a row out of range is ignored.
        state.apply(Self.event(.row(index: 1, caption: "1 rocket: garbled", picture: PagePicture(width: 1, height: 1, base64: "!!!!"),
                                    parts: nil)))
        state.apply(Self.event(.row(index: 5, caption: "nowhere", picture: nil, parts: nil)))
        #expect(state.rows[1].caption == "1 rocket: filtered")
        #expect(state.rejectedPictures == 1)

        state.apply(Self.event(.rows(count: 1)))
        #expect(state.rows.count == 1)
        state.apply(Self.event(.rows(count: -1)))
        #expect(state.rows.count == 1)
    }

    @Test func theVersionChangesOnlyWithWhatIsShown() {
        var state = LiveViewState()
        state.apply(Self.event(.mark(name: "x")))
        #expect(state.version == 0)
        state.apply(Self.frameEvent(width: 1, height: 1, pixels: [1, 1, 1]))
        let afterFrame = state.version
        state.apply(Self.event(.frame(PagePicture(width: 1, height: nil, base64: nil))))
        #expect(state.version == afterFrame)
        #expect(afterFrame > 0)
    }

    /// A `detail` event: the full-size picture `part` of row `index`, one pixel of `color`.
    static func detailEvent(index: Int, part: Int, caption: String, color: [UInt8]) -> PageEvent {
        event(.detail(index: index, part: part, caption: caption, picture: picture(width: 1, height: 1, pixels: color)))
    }

    @Test func aRowKeepsItsFullSizePicturesWhileItsNumberOfPartsStaysTheSame() throws {
        var state = LiveViewState()
        state.apply(Self.event(.rows(count: 1)))
        state.apply(Self.event(.row(index: 0, caption: "0 coffee: loaded", picture: nil, parts: 1)))
        state.apply(Self.detailEvent(index: 0, part: 0, caption: "before", color: [1, 2, 3]))
        #expect(state.rows[0].fullSize.map(\.caption) == ["before"])
        #expect(state.rows[0].fullSize[0].picture?.pixels == [1, 2, 3])

        // A new caption with as many parts keeps them; a new number of parts empties them until their details come.
        state.apply(Self.event(.row(index: 0, caption: "0 coffee: filtering", picture: nil, parts: 1)))
        #expect(state.rows[0].fullSize[0].picture?.pixels == [1, 2, 3])
        state.apply(Self.event(.row(index: 0, caption: "0 coffee: filtered", picture: nil, parts: 2)))
        #expect(state.rows[0].fullSize.count == 2 && state.rows[0].fullSize.allSatisfy { $0.picture == nil })
        state.apply(Self.detailEvent(index: 0, part: 1, caption: "after", color: [9, 9, 9]))
        #expect(state.rows[0].fullSize[1].picture?.pixels == [9, 9, 9])

        // Details outside what the row announced are ignored; a corrupt one is counted and changes nothing.
        let version = state.version
        state.apply(Self.detailEvent(index: 0, part: 2, caption: "third", color: [0, 0, 0]))
        state.apply(Self.detailEvent(index: 3, part: 0, caption: "elsewhere", color: [0, 0, 0]))
        state.apply(Self.event(.detail(index: 0, part: 1, caption: "garbled", picture: PagePicture(width: 1, height: 1, base64: "!!!!"))))
        #expect(state.version == version)
        #expect(state.rejectedPictures == 1)
        #expect(state.rows[0].fullSize[1].caption == "after")

        // A placeholder row has none; an absurd number of parts is cut to the most kept.
        state.apply(Self.event(.row(index: 0, caption: "0 coffee: away", picture: nil, parts: nil)))
        #expect(state.rows[0].fullSize.isEmpty)
        state.apply(Self.event(.row(index: 0, caption: "0 coffee: many", picture: nil, parts: 1_000_000)))
        #expect(state.rows[0].fullSize.count == LiveViewState.largestPartCount)
    }
}
