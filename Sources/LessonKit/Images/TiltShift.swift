/// How far each blur pass of `tiltShift` reaches, in pixels: on a 160×120 photo, three passes of 4
/// soften the top and bottom like a shallow depth of field without smearing the scene away.
let tiltShiftRadius = 4

/// Three box passes come close to a Gaussian blur, which is what the original playground did with Accelerate.
let tiltShiftPasses = 3

/// Where `tiltShiftMask` is 0 (sharp) and where it reaches 1 (fully blurred), as distances from the
/// middle row: 0 is the middle, 1 the top or bottom row.
let tiltShiftSharpUntil = 0.25
let tiltShiftBlurredFrom = 0.75

/// Makes a photo look like a miniature model: sharp across the middle, blurred towards the top and bottom.
///
/// Three box-blur passes give a blurred copy, and `tiltShiftMask` decides row by row how much of it
/// replaces the original. Rows where the mask is 0 come back byte for byte unchanged.
public func tiltShift(_ image: RGBImage) -> RGBImage {
    var blurred = image
    for _ in 0..<tiltShiftPasses {
        blurred = boxBlur(blurred, radius: tiltShiftRadius)
    }
    let mask = tiltShiftMask(height: image.height)
    let rowLength = image.width * 3
    var result = image
    guard rowLength > 0 else { return result }
    result.pixels.withUnsafeMutableBufferPointer { outputBuffer in
        blurred.pixels.withUnsafeBufferPointer { softBuffer in
            let output = outputBuffer.baseAddress!, soft = softBuffer.baseAddress!
            for row in 0..<image.height {
                // Blending in fixed point with weights out of 256 keeps equal inputs exactly equal,
                // which floating point would not promise after rounding.
                let weight = Int((mask[row] * 256).rounded())
                guard weight > 0 else { continue }
                var index = row * rowLength
                let end = index + rowLength
                while index < end {
                    let mixed = Int(output[index]) * (256 - weight) + Int(soft[index]) * weight
                    output[index] = UInt8(truncatingIfNeeded: (mixed + 128) >> 8)
                    index += 1
                }
            }
        }
    }
    return result
}

/// How much of the blurred copy `tiltShift` uses on each row: 1 on the top and bottom rows, 0 in a band
/// around the middle row (`height / 2`), with smooth ramps between so no edge shows where the blur starts.
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
