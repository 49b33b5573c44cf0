import Foundation

/// How strongly `tiltShift` blurs the top and bottom rows: the Gaussian's standard deviation as a fraction of
/// the image's width. On a 400×300 photo that is 20 pixels, a kernel of 121 taps: the strong blur of a
/// miniature-model photo, which costs tens of milliseconds of real work per photo.
let tiltShiftStrongestBlur = 0.05

/// Where `tiltShiftMask` is 0 (sharp) and where it reaches 1 (fully blurred), as distances from the
/// middle row: 0 is the middle, 1 the top or bottom row.
let tiltShiftSharpUntil = 0.25
let tiltShiftBlurredFrom = 0.75

/// Makes a photo look like a miniature model: sharp across the middle, more and more blurred towards the
/// top and bottom, as a lens tilted against the scene would show it.
///
/// Each row gets a Gaussian blur whose standard deviation is `tiltShiftMask` of that row times the strongest
/// blur, done as a separable blur (a horizontal pass, then a vertical one), so the work grows with the
/// kernel's width: the real cost of a lens blur, tens of milliseconds for a shipped photo. Rows where the
/// mask is 0 come back byte for byte unchanged.
public func tiltShift(_ image: RGBImage) -> RGBImage {
    let strongest = tiltShiftStrongestBlur * Double(image.width)
    let kernels = tiltShiftMask(height: image.height).map { GaussianKernel(sigma: $0 * strongest) }
    return separableBlur(image, rowKernels: kernels)
}

/// Blurs `image` with a Gaussian of standard deviation `sigma` pixels, reading the image mirrored at its edges
/// where the kernel reaches past them. A `sigma` of 0 returns the image unchanged. `tiltShift` is this with a
/// `sigma` per row. Page 4 blurs a whole photo with it, and the tests check the shared blur through this uniform case.
public func gaussianBlur(_ image: RGBImage, sigma: Double) -> RGBImage {
    separableBlur(image, rowKernels: Array(repeating: GaussianKernel(sigma: sigma), count: image.height))
}

/// A sampled, normalised Gaussian in fixed point: integer weights that add up to exactly `GaussianKernel.one`,
/// so an area of one colour keeps that colour exactly, which floating point would not promise after rounding.
struct GaussianKernel: Equatable {
    /// The sum of the weights: 1.0 in fixed point.
    static let one: Int32 = 1 << 16

    /// The weights from `-radius` to `radius`; the middle one is at index `radius`.
    let weights: [Int32]

    var radius: Int { weights.count / 2 }

    /// The kernel reaches three standard deviations, past which a Gaussian's weights round to almost nothing.
    init(sigma: Double) {
        precondition(sigma >= 0, "a blur's standard deviation is 0 or more, not \(sigma)")
        let radius = Int((sigma * 3).rounded(.up))
        guard radius > 0 else {
            weights = [Self.one]
            return
        }
        let exact = (-radius...radius).map { offset in exp(-Double(offset * offset) / (2 * sigma * sigma)) }
        let total = exact.reduce(0, +)
        var weights = exact.map { Int32(($0 / total * Double(Self.one)).rounded()) }
        // Rounding leaves the sum a few units off; the middle weight, the largest, absorbs the difference.
        weights[radius] += Self.one - weights.reduce(0, +)
        self.weights = weights
    }
}

/// Blurs each row `y` of `image` with `rowKernels[y]`: first along the rows, then down the columns, each
/// output row mixing the rows around it with its own kernel.
///
/// Where a kernel reaches past the image it reads the image mirrored at that edge: repeating the edge pixel
/// instead would weigh it up to half the kernel, and smear the edge's detail into streaks.
///
/// The horizontal pass keeps 8 extra bits of precision (samples times 256), so the only rounding to whole
/// levels is the one at the end.
private func separableBlur(_ image: RGBImage, rowKernels: [GaussianKernel]) -> RGBImage {
    let width = image.width, height = image.height
    precondition(rowKernels.count == height, "a \(height)-row image needs \(height) row kernels, not \(rowKernels.count)")
    guard width > 0, height > 0 else { return image }
    let rowLength = width * 3
    let widest = rowKernels.map(\.radius).max() ?? 0
    // A row with `widest` mirrored pixels at each end, so the horizontal pass never checks for the edge.
    var padded = [Int32](repeating: 0, count: rowLength + 2 * widest * 3)
    var rowBlurred = [Int32](repeating: 0, count: width * height * 3)
    var column = [Int](repeating: 0, count: verticalStripSamples)
    var result = image
    // Raw pointers and `while` loops rather than buffer subscripts and `for` over ranges: written that way the
    // loops are plain arithmetic the optimiser can unroll, with no bounds checks or range iterators in them.
    result.pixels.withUnsafeMutableBufferPointer { pixelBuffer in
        padded.withUnsafeMutableBufferPointer { paddedBuffer in
            rowBlurred.withUnsafeMutableBufferPointer { rowBlurredBuffer in
                column.withUnsafeMutableBufferPointer { columnBuffer in
                    let pixels = pixelBuffer.baseAddress!, padded = paddedBuffer.baseAddress!
                    let rowBlurred = rowBlurredBuffer.baseAddress!, column = columnBuffer.baseAddress!
                    for row in 0..<height {
                        rowKernels[row].weights.withUnsafeBufferPointer { weights in
                            blurRow(pixels + row * rowLength, width: width, weights: weights,
                                    padded: padded, into: rowBlurred + row * rowLength)
                        }
                    }
                    // Strip by strip down the image, so the rows a kernel reaches stay in the core's own cache:
                    // whole rows, 121 of them for the widest kernel, would not, and two threads filtering at
                    // once would then wait on the memory they share.
                    var first = 0
                    while first < rowLength {
                        let end = min(first + verticalStripSamples, rowLength)
                        for row in 0..<height {
                            rowKernels[row].weights.withUnsafeBufferPointer { weights in
                                blurColumns(rowBlurred, height: height, rowLength: rowLength, around: row, samples: first..<end,
                                            weights: weights, sums: column, into: pixels + row * rowLength)
                            }
                        }
                        first = end
                    }
                }
            }
        }
    }
    return result
}

/// `position` reflected into `0..<count` about the edges (`-1` reads `0`, `count` reads `count - 1`), then
/// clamped, for a kernel wider than the image itself.
func mirrored(_ position: Int, count: Int) -> Int {
    let inside = position < 0 ? -position - 1 : (position >= count ? 2 * count - position - 1 : position)
    return min(max(inside, 0), count - 1)
}

/// The horizontal pass over one row: each sample becomes the kernel's weighted sum of the samples around it,
/// kept at 256 times its level.
private func blurRow(_ source: UnsafeMutablePointer<UInt8>, width: Int, weights: UnsafeBufferPointer<Int32>,
                     padded: UnsafeMutablePointer<Int32>, into output: UnsafeMutablePointer<Int32>) {
    let radius = weights.count / 2
    let rowLength = width * 3
    var index = 0
    guard radius > 0 else {
        while index < rowLength {
            output[index] = Int32(source[index]) << 8
            index += 1
        }
        return
    }
    // Left margin, the row itself, right margin: the row mirrored at each end.
    var pixel = -radius
    while pixel < width + radius {
        let from = mirrored(pixel, count: width) * 3, to = (pixel + radius) * 3
        padded[to] = Int32(source[from])
        padded[to + 1] = Int32(source[from + 1])
        padded[to + 2] = Int32(source[from + 2])
        pixel += 1
    }
    while index < rowLength {
        output[index] = 0
        index += 1
    }
    // Tap by tap over the whole row: each step is one multiply-add per sample, in memory order.
    var tap = 0
    while tap < weights.count {
        let weight = weights[tap], shifted = padded + tap * 3
        index = 0
        while index < rowLength {
            output[index] += weight * shifted[index]
            index += 1
        }
        tap += 1
    }
    index = 0
    while index < rowLength {
        output[index] = (output[index] + 128) >> 8
        index += 1
    }
}

/// How many samples of each row the vertical pass takes at a time: 121 rows of 240 samples are 116 KB of
/// `Int32`, within a core's own (L2) cache.
let verticalStripSamples = 240

/// The vertical pass for one output row, over the row's `samples`: the kernel's weighted sum of the
/// horizontally blurred rows around `row`, mirrored at the top and bottom, rounded back to whole levels.
private func blurColumns(_ rows: UnsafeMutablePointer<Int32>, height: Int, rowLength: Int, around row: Int,
                         samples: Range<Int>, weights: UnsafeBufferPointer<Int32>, sums: UnsafeMutablePointer<Int>,
                         into output: UnsafeMutablePointer<UInt8>) {
    let radius = weights.count / 2
    let first = samples.lowerBound, count = samples.count
    var index = 0
    while index < count {
        sums[index] = 0
        index += 1
    }
    var tap = 0
    while tap < weights.count {
        let weight = Int(weights[tap])
        let source = rows + mirrored(row + tap - radius, count: height) * rowLength + first
        index = 0
        while index < count {
            sums[index] += weight * Int(source[index])
            index += 1
        }
        tap += 1
    }
    // Samples at 256 times their level, weights out of 65536: 24 bits to drop, rounding to the nearest level.
    let strip = output + first
    index = 0
    while index < count {
        strip[index] = UInt8(truncatingIfNeeded: (sums[index] + (1 << 23)) >> 24)
        index += 1
    }
}

/// How strongly `tiltShift` blurs each row, from 0 (sharp) to 1 (its strongest blur): 1 on the top and bottom
/// rows, 0 in a band around the middle row (`height / 2`), with smooth ramps between so no edge shows where
/// the blur starts.
///
/// An image of one row has only a middle, so its single weight is 0.
public func tiltShiftMask(height: Int) -> [Double] {
    precondition(height >= 0, "an image is at least 0 rows high, not \(height)")
    guard height > 1 else { return Array(repeating: 0, count: height) }
    let lastRow = Double(height - 1)
    return (0..<height).map { row in
        let distanceFromMiddle = abs(Double(row) / lastRow - 0.5) * 2
        let ramp = (distanceFromMiddle - tiltShiftSharpUntil) / (tiltShiftBlurredFrom - tiltShiftSharpUntil)
        let t = min(max(ramp, 0), 1)
        // Smoothstep: the weight leaves 0 and arrives at 1 with zero slope, so the ramp has no visible seam.
        return t * t * (3 - 2 * t)
    }
}

/// Replaces each pixel by the average of the `(2 * radius + 1)²` square around it, repeating the edge
/// pixels where the square reaches past the image.
///
/// The square is done as a horizontal then a vertical pass with running sums, so the cost per pixel does not
/// grow with the radius; the sums stay unrounded until the single division at the end.
public func boxBlur(_ image: RGBImage, radius: Int) -> RGBImage {
    precondition(radius >= 0, "a blur radius is 0 or more, not \(radius)")
    let width = image.width, height = image.height
    precondition(image.pixels.count == width * height * 3,
                 "a \(width)×\(height) RGB image has \(width * height * 3) bytes, not \(image.pixels.count)")
    guard radius > 0, !image.pixels.isEmpty else { return image }

    let count = image.pixels.count
    let rowLength = width * 3
    let area = (2 * radius + 1) * (2 * radius + 1)
    var samples = [Int](repeating: 0, count: count)
    var rowSums = samples
    var result = image
    // Raw pointers and `while` loops rather than buffer subscripts and `for` over ranges: pages run debug builds,
    // where those are unspecialised generic calls, and measured they made the blur five times slower.
    result.pixels.withUnsafeMutableBufferPointer { pixelBuffer in
        samples.withUnsafeMutableBufferPointer { sampleBuffer in
            rowSums.withUnsafeMutableBufferPointer { rowSumBuffer in
                let pixels = pixelBuffer.baseAddress!, samples = sampleBuffer.baseAddress!
                let rowSums = rowSumBuffer.baseAddress!
                var index = 0
                while index < count {
                    samples[index] = Int(pixels[index])
                    index += 1
                }
                for row in 0..<height {
                    for channel in 0..<3 {
                        slideWindow(over: samples, into: rowSums, first: row * rowLength + channel,
                                    step: 3, count: width, radius: radius)
                    }
                }
                // The vertical pass writes over `samples`, which the horizontal pass no longer needs.
                for column in 0..<width {
                    for channel in 0..<3 {
                        slideWindow(over: rowSums, into: samples, first: column * 3 + channel,
                                    step: rowLength, count: height, radius: radius)
                    }
                }
                index = 0
                while index < count {
                    pixels[index] = UInt8(truncatingIfNeeded: (samples[index] + area / 2) / area)
                    index += 1
                }
            }
        }
    }
    return result
}

/// Writes, for `count` elements `step` apart starting at `first`, the sum of the `2 * radius + 1` elements
/// centred on each, counting the first or last element again wherever the window passes an end.
private func slideWindow(over input: UnsafeMutablePointer<Int>, into output: UnsafeMutablePointer<Int>,
                         first: Int, step: Int, count: Int, radius: Int) {
    let last = first + (count - 1) * step
    var sum = 0
    var offset = -radius
    while offset <= radius {
        let position = first + offset * step
        sum += input[position < first ? first : (position > last ? last : position)]
        offset += 1
    }
    var leaving = first - radius * step
    var entering = first + (radius + 1) * step
    var position = first
    while position <= last {
        output[position] = sum
        sum += input[entering > last ? last : entering]
        sum -= input[leaving < first ? first : leaving]
        leaving += step
        entering += step
        position += step
    }
}
