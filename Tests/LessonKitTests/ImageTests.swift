import Foundation
import Testing
@testable import LessonKit
import TourTestSupport

/// A small image whose every byte differs from its neighbours, so a mixed-up row, column or channel shows.
private func gradientImage(width: Int, height: Int) -> RGBImage {
    let pixels = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: $0 * 37 + ($0 / 7) * 11) }
    return RGBImage(width: width, height: height, pixels: pixels)
}

private func uniformImage(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) -> RGBImage {
    let pixels = (0..<width * height).flatMap { _ in [red, green, blue] }
    return RGBImage(width: width, height: height, pixels: pixels)
}

private func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}

/// The image tests, grouped so that `swift test --filter ImageTests` picks out all of them.
@Suite(.bodiesBelowTheRunner) enum ImageTests {}

extension ImageTests {
@Suite("PPM decoding and encoding", .bodiesBelowTheRunner)
struct PPM {
    @Test func roundTripKeepsEveryByte() throws {
        let image = gradientImage(width: 5, height: 3)
        #expect(try RGBImage(ppm: image.ppmData()) == image)
    }

    @Test func encoderWritesTheMinimalHeader() {
        let image = RGBImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6])
        #expect(image.ppmData() == bytes("P6\n2 1\n255\n") + [1, 2, 3, 4, 5, 6])
    }

    @Test func headerMayHaveCommentsAndAnyWhitespace() throws {
        let data = bytes("P6 # made by hand\n\t2\r\n# the height:\n1\u{0B}\u{0C}255\n") + [10, 20, 30, 40, 50, 60]
        #expect(try RGBImage(ppm: data) == RGBImage(width: 2, height: 1, pixels: [10, 20, 30, 40, 50, 60]))
    }

    @Test func bytesAfterThePixelsAreIgnored() throws {
        let data = bytes("P6\n1 1\n255\n") + [7, 8, 9] + bytes("P6\n1 1\n255\n") + [0, 0, 0]
        #expect(try RGBImage(ppm: data) == RGBImage(width: 1, height: 1, pixels: [7, 8, 9]))
    }

    @Test func shortPixelDataIsTruncated() {
        let data = gradientImage(width: 3, height: 2).ppmData().dropLast()
        #expect(throws: PPMError.truncatedPixels(expected: 18, found: 17)) {
            try RGBImage(ppm: Array(data))
        }
    }

    @Test func headerWithoutPixelsIsTruncated() {
        #expect(throws: PPMError.truncatedPixels(expected: 6, found: 0)) {
            try RGBImage(ppm: bytes("P6\n2 1\n255"))
        }
    }

    @Test func headerEndingEarlyNamesTheMissingField() {
        #expect(throws: PPMError.truncatedHeader(missing: .height)) {
            try RGBImage(ppm: bytes("P6\n2 # no height follows"))
        }
        #expect(throws: PPMError.truncatedHeader(missing: .width)) {
            try RGBImage(ppm: bytes("P6"))
        }
    }

    @Test func garbageIsNotAPPM() {
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8]
        #expect(throws: PPMError.notPPM(startsWith: [0x89, 0x50])) {
            try RGBImage(ppm: png)
        }
        #expect(throws: PPMError.notPPM(startsWith: [])) {
            try RGBImage(ppm: [])
        }
    }

    @Test func garbageInTheHeaderNamesTheField() {
        #expect(throws: PPMError.badNumber(field: .width, text: "abc")) {
            try RGBImage(ppm: bytes("P6\nabc 2\n255\n"))
        }
        #expect(throws: PPMError.badNumber(field: .height, text: "-2")) {
            try RGBImage(ppm: bytes("P6\n2 -2\n255\n"))
        }
    }

    @Test(arguments: ["P3", "P5", "P7"])
    func otherNetpbmKindsAreRefusedByName(magic: String) {
        #expect(throws: PPMError.unsupportedKind(magic: magic)) {
            try RGBImage(ppm: bytes("\(magic)\n1 1\n255\n") + [0, 0, 0])
        }
    }

    @Test func zeroOrHugeSizesAreRefused() {
        #expect(throws: PPMError.badSize(width: 0, height: 2)) {
            try RGBImage(ppm: bytes("P6\n0 2\n255\n"))
        }
        #expect(throws: PPMError.badSize(width: 2, height: 100_000)) {
            try RGBImage(ppm: bytes("P6\n2 100000\n255\n"))
        }
    }

    @Test func sixteenBitSamplesAreRefused() {
        #expect(throws: PPMError.unsupportedMaxval(65535)) {
            try RGBImage(ppm: bytes("P6\n1 1\n65535\n") + [0, 0, 0, 0, 0, 0])
        }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(PPMError.truncatedPixels(expected: 18, found: 17).description
                == "truncated PPM pixels: the header promises 18 bytes, the data holds 17")
        #expect(PPMError.notPPM(startsWith: [0x89, 0x50]).description
                == "not a PPM image: it starts with 0x89 0x50, where a PPM starts with P6")
        #expect(PPMError.badNumber(field: .maxval, text: "x").description
                == "bad PPM header: the maxval should be a decimal number, not 'x'")
    }
}

@Suite("Box blur and tilt-shift", .bodiesBelowTheRunner)
struct Filters {
    @Test(arguments: [1, 2, 4])
    func singleWhitePixelSpreadsIntoASymmetricSquare(radius: Int) {
        let size = 21, middle = 10
        var pixels = [UInt8](repeating: 0, count: size * size * 3)
        pixels.replaceSubrange((middle * size + middle) * 3..<(middle * size + middle + 1) * 3, with: [255, 255, 255])
        let blurred = boxBlur(RGBImage(width: size, height: size, pixels: pixels), radius: radius)

        func value(_ x: Int, _ y: Int, _ channel: Int) -> Int { Int(blurred.pixels[(y * size + x) * 3 + channel]) }
        for y in 0..<size {
            for x in 0..<size {
                let inside = abs(x - middle) <= radius && abs(y - middle) <= radius
                #expect((value(x, y, 0) > 0) == inside, "pixel (\(x), \(y))")
                #expect(value(x, y, 0) == value(size - 1 - x, y, 0) && value(x, y, 0) == value(x, size - 1 - y, 0))
                #expect(value(x, y, 0) == value(y, x, 0))
                #expect(value(x, y, 0) == value(x, y, 1) && value(x, y, 0) == value(x, y, 2))
            }
        }
        let area = (2 * radius + 1) * (2 * radius + 1)
        let total = (0..<size * size).reduce(0) { $0 + Int(blurred.pixels[$1 * 3]) }
        // Each covered pixel is rounded once, so it may be off by at most half a level.
        #expect(abs(total - 255) * 2 <= area, "total brightness \(total) should be 255 within rounding")
    }

    @Test(arguments: [(1, 1), (7, 5), (3, 9)])
    func boxBlurMatchesTheAverageOfTheClampedSquare(width: Int, height: Int) {
        let image = gradientImage(width: width, height: height)
        let radius = 2
        let area = (2 * radius + 1) * (2 * radius + 1)
        var expected = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum = 0
                    for dy in -radius...radius {
                        for dx in -radius...radius {
                            let sx = min(max(x + dx, 0), width - 1), sy = min(max(y + dy, 0), height - 1)
                            sum += Int(image.pixels[(sy * width + sx) * 3 + channel])
                        }
                    }
                    expected.append(UInt8((sum + area / 2) / area))
                }
            }
        }
        #expect(boxBlur(image, radius: radius).pixels == expected)
    }

    @Test func radiusZeroLeavesTheImageAlone() {
        let image = gradientImage(width: 4, height: 3)
        #expect(boxBlur(image, radius: 0) == image)
    }

    @Test func uniformImageIsUnchangedByBlurAndTiltShift() {
        let image = uniformImage(width: 40, height: 30, red: 90, green: 160, blue: 221)
        #expect(boxBlur(image, radius: 4) == image)
        #expect(gaussianBlur(image, sigma: 7.5) == image)
        #expect(tiltShift(image) == image)
    }

    @Test(arguments: [0.0, 0.3, 1, 2.5, 20])
    func gaussianKernelIsSymmetricNormalisedAndReachesThreeSigma(sigma: Double) {
        let kernel = GaussianKernel(sigma: sigma)
        #expect(kernel.radius == Int((sigma * 3).rounded(.up)))
        #expect(kernel.weights.reduce(0, +) == GaussianKernel.one)
        #expect(kernel.weights == kernel.weights.reversed())
        for offset in 0..<max(kernel.radius - 1, 0) {
            #expect(kernel.weights[offset] <= kernel.weights[offset + 1], "weights should rise towards the middle")
        }
        // The middle weight takes up the rounding of all the others: at most half a unit each.
        if kernel.radius > 0 {
            #expect(kernel.weights[kernel.radius] - kernel.weights[kernel.radius - 1] >= -Int32(kernel.weights.count / 2))
        }
    }

    @Test func mirroredReadsTheImageReflectedAtItsEdges() {
        #expect((-3...7).map { mirrored($0, count: 5) } == [2, 1, 0, 0, 1, 2, 3, 4, 4, 3, 2])
        // A kernel wider than the image reads past the reflection: the edge pixel, not memory outside the image.
        #expect(mirrored(-40, count: 5) == 4)
        #expect(mirrored(40, count: 5) == 0)
        #expect(mirrored(3, count: 1) == 0)
    }

    /// A direct two-dimensional Gaussian in floating point, mirrored at the edges: the separable fixed-point
    /// blur must agree with it to within one level.
    @Test(arguments: [(1.0, 9, 7), (2.5, 17, 13), (4.0, 6, 5)])
    func gaussianBlurMatchesTheDirectWeightedAverage(sigma: Double, width: Int, height: Int) {
        let image = gradientImage(width: width, height: height)
        let radius = Int((sigma * 3).rounded(.up))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        let blurred = gaussianBlur(image, sigma: sigma)
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum = 0.0
                    for dy in -radius...radius {
                        for dx in -radius...radius {
                            let sx = mirrored(x + dx, count: width), sy = mirrored(y + dy, count: height)
                            sum += weights[dy + radius] * weights[dx + radius] * Double(image.pixels[(sy * width + sx) * 3 + channel])
                        }
                    }
                    let expected = sum / (total * total)
                    worst = max(worst, abs(expected - Double(blurred.pixels[(y * width + x) * 3 + channel])))
                }
            }
        }
        #expect(worst <= 1, "the largest difference from the direct Gaussian is \(worst) levels")
    }

    @Test func strongestTiltShiftBlurOnAShippedPhotoIsAWideKernel() throws {
        let photo = try Photos.load("coffee")
        // The work per pixel grows with the kernel: 121 taps each way at 400 pixels wide, where the old three
        // box passes of radius 4 cost about as much as 27 taps and took 2–7 ms for a 160×120 photo.
        #expect(GaussianKernel(sigma: tiltShiftStrongestBlur * Double(photo.width)).weights.count >= 100)
    }

    @Test(arguments: [3, 9, 120, 121])
    func maskIsBlurredAtTheEdgesAndSharpInTheMiddle(height: Int) {
        let mask = tiltShiftMask(height: height)
        let middle = height / 2
        #expect(mask.count == height)
        #expect(mask.first == 1)
        #expect(mask.last == 1)
        #expect(mask[middle] == 0)
        for row in 0..<middle {
            #expect(mask[row] >= mask[row + 1], "mask should not rise towards the middle at row \(row)")
        }
        for row in middle..<height - 1 {
            #expect(mask[row] <= mask[row + 1], "mask should not fall away from the middle at row \(row)")
        }
    }

    @Test func maskRampsWithoutASeam() {
        let mask = tiltShiftMask(height: 120)
        let steepest = zip(mask, mask.dropFirst()).map { abs($0 - $1) }.max() ?? 0
        // Ramps a quarter of the height long move about 1/20 per row at their steepest; a hard edge would jump by 1.
        #expect(steepest < 0.1)
    }

    @Test func maskOfAOneRowImageIsSharp() {
        #expect(tiltShiftMask(height: 1) == [0])
        #expect(tiltShiftMask(height: 0) == [])
    }

    /// How much neighbouring pixels of one row differ: lower means smoother.
    private func roughness(of image: RGBImage, row: Int) -> Int {
        let start = row * image.width * 3
        var total = 0
        for index in start + 3..<start + image.width * 3 {
            total += abs(Int(image.pixels[index]) - Int(image.pixels[index - 3]))
        }
        return total
    }

    private func row(_ row: Int, of image: RGBImage) -> ArraySlice<UInt8> {
        image.pixels[row * image.width * 3..<(row + 1) * image.width * 3]
    }

    @Test(arguments: ["coffee", "chelsea", "rocket"])
    func tiltShiftKeepsTheMiddleSharpAndSmoothsTheTop(name: String) throws {
        let photo = try Photos.load(name)
        let shifted = tiltShift(photo)
        let middle = photo.height / 2
        #expect(shifted.width == photo.width && shifted.height == photo.height)
        #expect(row(middle, of: shifted) == row(middle, of: photo))
        #expect(row(0, of: shifted) != row(0, of: photo))
        #expect(roughness(of: shifted, row: 0) < roughness(of: photo, row: 0))
        #expect(roughness(of: shifted, row: photo.height - 1) < roughness(of: photo, row: photo.height - 1))
    }

    @Test(arguments: ["coffee", "chelsea", "rocket"])
    func tiltShiftBlursMoreTowardsTheEdges(name: String) throws {
        let photo = try Photos.load(name)
        let shifted = tiltShift(photo)
        let mask = tiltShiftMask(height: photo.height)
        for row in mask.indices where mask[row] == 0 {
            #expect(self.row(row, of: shifted) == self.row(row, of: photo), "row \(row) is in the sharp band")
        }
        // A row halfway up the ramp keeps more of its own detail than the top row, whose blur is the strongest.
        let halfway = try #require(mask.indices.first { mask[$0] < 0.5 })
        let keptHalfway = Double(roughness(of: shifted, row: halfway)) / Double(roughness(of: photo, row: halfway))
        let keptAtTheTop = Double(roughness(of: shifted, row: 0)) / Double(roughness(of: photo, row: 0))
        #expect(keptAtTheTop < keptHalfway, "detail kept: \(keptAtTheTop) at the top, \(keptHalfway) at row \(halfway)")
        #expect(keptHalfway < 1)
    }
}

@Suite("Shipped photos", .bodiesBelowTheRunner)
struct ShippedPhotos {
    @Test func theShippedPhotosAreListedInOrder() {
        #expect(Photos.names == ["astronaut", "chelsea", "coffee", "hubble", "retina", "rocket"])
    }

    @Test(arguments: Photos.names)
    func everyPhotoLoadsAtTheShippedSize(name: String) throws {
        let photo = try Photos.load(name)
        #expect(photo.width == 400)
        #expect(photo.height == 300)
        #expect(Set(photo.pixels).count > 16, "a real photo has more than a few distinct levels")
    }

    @Test(arguments: Photos.names)
    func aShippedPhotoIsScaledDownForTheLiveView(name: String) throws {
        // 400×300 photos must not put 360 KB frames on the wire: the live view sends at most 160×96.
        let frame = LiveView.fitted(try Photos.load(name))
        #expect(frame.width <= LiveView.largestWidth && frame.height <= LiveView.largestHeight)
        #expect(frame.width == 128 && frame.height == 96, "the aspect ratio is kept: \(frame.width)×\(frame.height)")
    }

    @Test func unknownNameListsTheValidOnes() {
        let error = #expect(throws: Photos.LoadError.self) { try Photos.load("../CREDITS") }
        guard case .unknownName(let name, let valid, _) = error else {
            Issue.record("expected unknownName, got \(String(describing: error))")
            return
        }
        #expect(name == "../CREDITS")
        #expect(valid == Photos.names)
        #expect(error?.description.contains("astronaut, chelsea, coffee, hubble, retina, rocket") == true)
    }

    @Test func tourAssetsOverridesTheSourceRelativeFolder() {
        #expect(Photos.folder(environment: ["TOUR_ASSETS": "/opt/tour/assets"]).path == "/opt/tour/assets/photos")
        let fromSource = Photos.folder(environment: [:])
        #expect(fromSource.path.hasSuffix("/assets/photos"))
        #expect(FileManager.default.fileExists(atPath: fromSource.appendingPathComponent("coffee.ppm").path))
        #expect(Photos.folder(environment: ["TOUR_ASSETS": ""]) == fromSource)
    }
}
}

extension ImageTests {
/// Not a pass or fail test (speed depends on the machine): prints, with `Swift.print` since LessonKit's own
/// `print` writes to a page's trace, what one tilt-shift of a shipped photo costs
/// in the build the tests use, which compiles LessonKit optimised as `swift run tour` does.
@Suite("Tilt-shift cost", .bodiesBelowTheRunner)
struct FilterCost {
    /// Nine filters of about 0.1 s each: it yields between them, leaving the cooperative pool's threads to the other
    /// tests (each measurement is within one stretch on one thread, as the thread's CPU clock needs).
    @Test func printsTheMedianTiltShiftTime() async throws {
        let photo = try Photos.load("coffee")
        var wall: [Double] = [], cpu: [Double] = []
        for _ in 0..<9 {
            await Task.yield()
            let start = (DispatchTime.now().uptimeNanoseconds, threadCPUNanoseconds())
            _ = tiltShift(photo)
            wall.append(Double(DispatchTime.now().uptimeNanoseconds - start.0) / 1e6)
            cpu.append(Double(threadCPUNanoseconds() - start.1) / 1e6)
        }
        wall.sort()
        cpu.sort()
        let load = try String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").prefix(3)
        // CPU time is what the filter itself costs; the wall time adds whatever else the cores were doing.
        Swift.print("tilt-shift of a \(photo.width)×\(photo.height) photo over 9 runs: median \(String(format: "%.1f", cpu[4])) ms of CPU time "
                    + "(\(String(format: "%.1f–%.1f", cpu[0], cpu[8]))), median \(String(format: "%.1f", wall[4])) ms wall clock; "
                    + "load average \(load.joined(separator: " "))")
        #expect(cpu[0] > 0)
    }

    private func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
}
