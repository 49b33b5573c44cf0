import Foundation
import LessonKit
import Synchronization

/// A point in the live view, which is 200 points square with its origin at the top left.
struct Point: Sendable, Equatable, CustomStringConvertible {
    var x: Double
    var y: Double

    var description: String { String(format: "(%.0f, %.0f)", x, y) }
}

/// A colour as red, green and blue from 0 to 1.
struct Colour: Sendable, Equatable, CustomStringConvertible {
    var red: Double
    var green: Double
    var blue: Double

    static let red = Colour(red: 0.8, green: 0.1, blue: 0.1)
    static let blue = Colour(red: 0.1, green: 0.2, blue: 0.8)

    var description: String {
        switch self {
        case .red: "red"
        case .blue: "blue"
        default: String(format: "rgb(%.2f, %.2f, %.2f)", red, green, blue)
        }
    }
}

/// What the live view shows: a 40-point box on a coloured background.
struct SceneState: Sendable, Equatable {
    var boxCenter = Point(x: 20, y: 20)
    /// Degrees, clockwise.
    var boxAngle = 0.0
    var background = Colour.red

    /// The side of the live view's square, in points.
    static let side = 200.0
    /// The side of the box, in points.
    static let boxSide = 40.0
    /// The side of the picture sent to the live view, in pixels: the largest square LessonKit sends whole.
    static let pictureSide = LiveView.largestHeight

    /// The scene drawn as pixels: the background, and the box turned about its centre.
    func picture() -> RGBImage {
        let side = Self.pictureSide
        let scale = Self.side / Double(side)
        let radians = boxAngle * .pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        let backgroundPixel = [background.red, background.green, background.blue].map { UInt8(max(0, min(255, $0 * 255))) }
        let boxPixel: [UInt8] = [250, 220, 60]
        var pixels = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                // The pixel's centre in points, turned back by the box's angle into the box's own axes.
                let dx = (Double(x) + 0.5) * scale - boxCenter.x, dy = (Double(y) + 0.5) * scale - boxCenter.y
                let alongX = dx * cosine + dy * sine, alongY = -dx * sine + dy * cosine
                let inBox = abs(alongX) <= Self.boxSide / 2 && abs(alongY) <= Self.boxSide / 2
                let colour = inBox ? boxPixel : backgroundPixel
                let index = (y * side + x) * 3
                pixels[index] = colour[0]
                pixels[index + 1] = colour[1]
                pixels[index + 2] = colour[2]
            }
        }
        return RGBImage(width: side, height: side, pixels: pixels)
    }

    /// Moves every property that differs between `start` and `target` the fraction `progress` of the way,
    /// and leaves the others as they are now, so animations of different properties can run at the same time.
    mutating func blend(from start: SceneState, to target: SceneState, progress: Double) {
        func between(_ from: Double, _ to: Double, current: Double) -> Double {
            // Weighted this way, progress 1 lands exactly on `to`, so a finished animation shows its target value.
            from == to ? current : from * (1 - progress) + to * progress
        }
        boxCenter.x = between(start.boxCenter.x, target.boxCenter.x, current: boxCenter.x)
        boxCenter.y = between(start.boxCenter.y, target.boxCenter.y, current: boxCenter.y)
        boxAngle = between(start.boxAngle, target.boxAngle, current: boxAngle)
        background.red = between(start.background.red, target.background.red, current: background.red)
        background.green = between(start.background.green, target.background.green, current: background.green)
        background.blue = between(start.background.blue, target.background.blue, current: background.blue)
    }
}

/// The scene that animations change, frame by frame, from their own threads, and draw into the live view.
final class Scene: Sendable {
    private let state = Mutex(SceneState())

    var snapshot: SceneState { state.withLock { $0 } }

    func update(_ change: (inout SceneState) -> Void) {
        state.withLock { change(&$0) }
    }
}

/// How many frames an animation computes per second of its duration.
let framesPerSecond = 30.0
/// How many frames pass between two marks on the timeline.
let framesPerMark = 15

/// Animates `scene` from its current state to the state `changes` describes, over `seconds`, on `queue`.
///
/// It works like UIKit's `UIView.animate(withDuration:animations:completion:)`: it returns at once, computes
/// the frames in the background with an ease-in-ease-out curve, and calls `completion` with the number of frames
/// once the last one is done. It knows nothing about dispatch groups. The completion runs on `queue`; UIKit would
/// call it on the main queue. Each frame is drawn into the live view (LessonKit sends at most 30 a second and
/// drops the surplus), and the last one is on screen before the completion runs.
func animate(_ name: String, seconds: Double, on queue: DispatchQueue, in scene: Scene,
             changes: @escaping @Sendable (inout SceneState) -> Void,
             completion: (@Sendable (_ frames: Int) -> Void)? = nil) {
    queue.async {
        // The animation starts from whatever the scene shows when its turn comes, as a chained one must.
        let start = scene.snapshot
        var target = start
        changes(&target)
        let frames = max(1, Int((seconds * framesPerSecond).rounded()))
        trace(name) {
            // Each frame is due at a fixed time from the start, so a late frame (a busy machine) is not
            // passed on to all the frames after it: the animation keeps its length, as a display's clock would.
            let startTime = DispatchTime.now()
            for frame in 1...frames {
                let due = Double(frame) / framesPerSecond / Simulated.speed
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - startTime.uptimeNanoseconds) / 1e9
                if due > elapsed { Simulated.wait((due - elapsed) * Simulated.speed) }
                let linear = Double(frame) / Double(frames)
                let eased = linear * linear * (3 - 2 * linear)
                scene.update { $0.blend(from: start, to: target, progress: eased) }
                let shown = scene.snapshot
                LiveView.show { shown.picture() }
                // Every half second of animation leaves a mark on the timeline; one per frame would only be noise.
                if frame % framesPerMark == 0 && frame < frames {
                    mark("\(name): frame \(frame) of \(frames)")
                }
            }
        }
        LiveView.flush()
        completion?(frames)
    }
}
