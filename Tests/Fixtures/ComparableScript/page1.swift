// A script of page 1's size and kind, for the edit-loop benchmark's baseline: what a learner on Linux would run with
// `swift page1.swift` without the tour. The same steps as page 1 (load a photo, filter it on the main thread, in a
// block operation with several blocks, in an Operation subclass with a completion block, cancelled before and while
// it runs), with LessonKit's helpers written out: no module to import, since the interpreter takes one file.
import Foundation

struct RGBImage: Sendable {
    var width: Int
    var height: Int
    var pixels: [UInt8]
}

enum Photo: String, CaseIterable {
    case coffee, chelsea, astronaut, rocket
}

let photoName = Photo.coffee
let executionBlocks = 3
let start = Date()

func stamp() -> String {
    String(format: "%8.3fs", Date().timeIntervalSince(start))
}

func trace<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    let began = Date()
    let result = try body()
    print("\(stamp())  span \(name): \(String(format: "%.1f", Date().timeIntervalSince(began) * 1000)) ms")
    return result
}

@discardableResult
func duration(_ body: () throws -> Void) rethrows -> Double {
    let began = Date()
    try body()
    let seconds = Date().timeIntervalSince(began)
    print("\(stamp())  took \(String(format: "%.1f", seconds * 1000)) ms")
    return seconds
}

func peek<T>(_ value: T, line: Int = #line) {
    print("\(stamp())  line \(line) → \(value)")
}

func mark(_ name: String) {
    print("\(stamp())  mark \(name)")
}

/// A photo made of gradients, as big as page 1's.
func loadPhoto(_ photo: Photo) -> RGBImage {
    let (width, height) = (400, 300)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let seed = photo.rawValue.unicodeScalars.reduce(0) { $0 &+ Int($1.value) }
    for y in 0..<height {
        for x in 0..<width {
            let index = (y * width + x) * 3
            pixels[index] = UInt8((x + seed) % 256)
            pixels[index + 1] = UInt8((y * 2 + seed) % 256)
            pixels[index + 2] = UInt8((x + y) % 256)
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}

func boxBlur(_ image: RGBImage, radius: Int) -> RGBImage {
    var result = image
    for y in 0..<image.height {
        for x in 0..<image.width {
            for channel in 0..<3 {
                var sum = 0
                var count = 0
                for dx in -radius...radius where x + dx >= 0 && x + dx < image.width {
                    sum += Int(image.pixels[(y * image.width + x + dx) * 3 + channel])
                    count += 1
                }
                result.pixels[(y * image.width + x) * 3 + channel] = UInt8(sum / count)
            }
        }
    }
    return result
}

/// Blurs the top and bottom thirds, more towards the edges, as a tilt-shift lens does.
func tiltShift(_ image: RGBImage) -> RGBImage {
    let blurred = boxBlur(image, radius: 3)
    var result = image
    for y in 0..<image.height {
        let distance = abs(Double(y) / Double(image.height) - 0.5) * 2
        guard distance > 0.33 else { continue }
        for index in (y * image.width * 3)..<((y + 1) * image.width * 3) {
            result.pixels[index] = blurred.pixels[index]
        }
    }
    return result
}

let photo = loadPhoto(photoName)
print("Loaded \(photoName.rawValue): \(photo.width)×\(photo.height) pixels")

duration {
    _ = tiltShift(photo)
}

final class ImageBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RGBImage?
    var image: RGBImage? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

let filtered = ImageBox()
let blockOperation = BlockOperation {
    trace("tilt-shift in a block operation") {
        filtered.image = tiltShift(photo)
    }
}
blockOperation.start()
peek(filtered.image.map { "\($0.width)×\($0.height) filtered" } ?? "none")

let severalBlocks = BlockOperation()
for number in 1...executionBlocks {
    severalBlocks.addExecutionBlock {
        trace("execution block \(number)") { _ = usleep(40_000) }
    }
}
let allBlocks = duration {
    severalBlocks.start()
}
print("\(executionBlocks) execution blocks took \(String(format: "%.2f", allBlocks)) s in all")

final class TiltShiftOperation: Operation, @unchecked Sendable {
    var inputImage: RGBImage?
    var outputImage: RGBImage?

    override func main() {
        guard !isCancelled, let inputImage else { return }
        let result = trace("tilt-shift body") { tiltShift(inputImage) }
        guard !isCancelled else { return }
        outputImage = result
    }
}

let filterOperation = TiltShiftOperation()
filterOperation.inputImage = photo
let completionRan = DispatchSemaphore(value: 0)
filterOperation.completionBlock = {
    mark("completion block")
    completionRan.signal()
}
filterOperation.start()
completionRan.wait()
peek(filterOperation.outputImage != nil)

let cancelledEarly = TiltShiftOperation()
cancelledEarly.inputImage = photo
cancelledEarly.addDependency(TiltShiftOperation())
cancelledEarly.cancel()
cancelledEarly.start()
peek(cancelledEarly.outputImage == nil)

final class BandedFilterOperation: Operation, @unchecked Sendable {
    let bands = 8
    let started = DispatchSemaphore(value: 0)
    private(set) var bandsDone = 0

    override func main() {
        for band in 1...bands {
            guard !isCancelled else {
                print("Saw the cancellation before band \(band) of \(bands)")
                return
            }
            if band == 1 { started.signal() }
            trace("band \(band)") { _ = boxBlur(photo, radius: band) }
            bandsDone = band
        }
    }
}

let cancelledLate = BandedFilterOperation()
let lateQueue = OperationQueue()
lateQueue.name = "page1.cancel-demo"
lateQueue.addOperation(cancelledLate)
cancelledLate.started.wait()
cancelledLate.cancel()
cancelledLate.waitUntilFinished()
peek(cancelledLate.bandsDone)
print("Done: four operations, one block operation with \(executionBlocks) blocks, and nothing left running.")
