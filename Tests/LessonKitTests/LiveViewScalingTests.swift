import Testing
@testable import LessonKit
import TourTestSupport

/// What the live view sends: pictures scaled down to the largest size, each pixel the average of those it covers.
@Suite("Live view: scaling pictures for the wire", .bodiesBelowTheRunner)
struct LiveViewScalingTests {
    /// A `width`×`height` image whose pixel (x, y) is `color(x, y)`.
    static func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> [UInt8]) -> RGBImage {
        RGBImage(width: width, height: height, pixels: (0..<height).flatMap { y in (0..<width).flatMap { x in color(x, y) } })
    }

    /// A 640×480 picture made and scaled aside (`computeAside`): a fifth of a second in a debug build.
    @Test func aLargePhotoIsFittedToTheLargestSizeKeepingItsShape() async {
        let sent = await computeAside("fit-photo") {
            LiveView.fitted(Self.image(640, 480) { x, _ in x < 320 ? [200, 0, 0] : [0, 0, 100] })
        }
        #expect(sent.width == 128 && sent.height == 96)
        #expect(Array(sent.pixels[0..<3]) == [200, 0, 0])
        #expect(Array(sent.pixels.suffix(3)) == [0, 0, 100])
        let small = Self.image(160, 120) { _, _ in [1, 2, 3] }
        #expect(LiveView.fitted(small).width == 128 && LiveView.fitted(small).height == 96)
        let fits = Self.image(64, 48) { _, _ in [1, 2, 3] }
        #expect(LiveView.fitted(fits) == fits, "a picture that fits is sent as it is")
    }

    @Test func eachScaledPixelAveragesTheBlockItCovers() {
        // A 4×2 checkerboard of 0 and 200 scaled to 2×1: each target pixel covers two of each, so 100.
        let board = Self.image(4, 2) { x, y in (x + y) % 2 == 0 ? [0, 0, 0] : [200, 200, 200] }
        #expect(LiveView.scaled(board, width: 2, height: 1).pixels == [100, 100, 100, 100, 100, 100])
    }
}
