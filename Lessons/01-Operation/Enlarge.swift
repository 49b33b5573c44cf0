import LessonKit

/// `image` made `factor` times as wide and as tall, each pixel copied into a `factor`×`factor` square: the same
/// picture with `factor`² times the pixels, so the filters on the page have that much more to do.
func enlarged(_ image: RGBImage, by factor: Int) -> RGBImage {
    guard factor > 1 else { return image }
    let width = image.width * factor, height = image.height * factor
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let source = ((y / factor) * image.width + x / factor) * 3
            let target = (y * width + x) * 3
            pixels[target] = image.pixels[source]
            pixels[target + 1] = image.pixels[source + 1]
            pixels[target + 2] = image.pixels[source + 2]
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}
