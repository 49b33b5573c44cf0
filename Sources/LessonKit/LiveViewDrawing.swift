import Foundation
import PageProtocol

/// One row of a list in the live view: a picture, or a placeholder when `picture` is nil, with a caption.
public struct LiveRow: Sendable, Equatable {
    public var caption: String
    /// What the row shows in the list, as a thumbnail.
    public var picture: RGBImage?
    /// The pictures the learner sees when opening this row at the pane's full size (`f` in the live view),
    /// for example a photo before and after its filter; empty when there is nothing larger to see.
    public var fullSize: [LivePicture]

    public init(caption: String, picture: RGBImage? = nil, fullSize: [LivePicture] = []) {
        self.caption = caption
        self.picture = picture
        self.fullSize = fullSize
    }
}

/// A picture with a caption, as one part of a row's full-size view.
public struct LivePicture: Sendable, Equatable {
    public var caption: String
    public var image: RGBImage

    public init(caption: String, image: RGBImage) {
        self.caption = caption
        self.image = image
    }
}

/// Draws into the tutorial's live view: animation frames and lists of pictures, sent to the host as trace events.
///
/// Pictures travel as `frame` and `row` events with their pixels in base64 (`docs/trace-format.md`). When the page
/// runs alone nothing is sent and nothing printed: a page says in its own words what the view would show.
public enum LiveView {
    /// The largest picture sent: 160×96×3 bytes are 61,440 in base64, which keeps a line under the host's
    /// 65,536-byte limit. Larger pictures are scaled down to fit, keeping their aspect ratio.
    public static let largestWidth = 160
    public static let largestHeight = 96
    /// Frames closer together than this (real time) are not sent at once: a terminal redraws no faster.
    public static let frameInterval: UInt64 = 1_000_000_000 / 30

    private static let pacer = FramePacer()

    /// Sends `frame` to the live view, at most 30 a second: a frame that comes sooner waits for its slot and is
    /// replaced by any newer one in the meantime, so the latest picture always arrives and nothing piles up.
    /// Returns false when the frame was held back (it may still be sent, or be replaced by a newer one).
    @discardableResult
    public static func show(frame: RGBImage) -> Bool {
        show { frame }
    }

    /// Like `show(frame:)`, but `draw` is called only for frames that are sent, so a page animating faster than
    /// 30 frames a second (or running alone, with nobody to see) does not pay for pictures that are dropped.
    @discardableResult
    public static func show(_ draw: @escaping @Sendable () -> RGBImage) -> Bool {
        guard isActive else { return false }
        return pacer.offer(draw, now: monotonicNanoseconds())
    }

    /// Whether frames are seen at all: false when the page runs alone.
    public static var isActive: Bool { LessonSession.shared.channel.isConnected }

    /// Sends at once a frame that `show(frame:)` held back, so a picture that ends an animation is on screen
    /// before whatever the page does next.
    public static func flush() {
        pacer.flush()
    }

    /// Shows `rows` as a list, top to bottom, replacing the list shown before; only what changed is sent: a `row`
    /// event for a row whose caption, thumbnail or number of full-size pictures changed, a `detail` event for each
    /// full-size picture that is new. Pictures are scaled down to the largest size on the way out, so a page may
    /// hand over its photos as they are, at no cost for rows that did not change.
    public static func rows(_ rows: [LiveRow]) {
        let session = LessonSession.shared
        guard session.channel.isConnected else { return }
        lastRows.withLock { last in
            // Under the lock, so two threads' lists cannot interleave their row events.
            session.emit(.rows(count: rows.count))
            for (index, row) in rows.enumerated() {
                let previous = index < last.count ? last[index] : nil
                let partsKept = previous?.fullSize.count == row.fullSize.count
                if previous?.caption != row.caption || previous?.picture != row.picture || !partsKept {
                    session.emit(.row(index: index, caption: row.caption, picture: row.picture.map { encoded(fitted($0)) },
                                      parts: row.fullSize.isEmpty ? nil : row.fullSize.count))
                }
                for (part, picture) in row.fullSize.enumerated() where !partsKept || previous?.fullSize[part] != picture {
                    session.emit(.detail(index: index, part: part, caption: picture.caption,
                                         picture: encoded(fitted(picture.image))))
                }
            }
            last = rows
        }
    }

    private static let lastRows = SanitizerVisibleLock<[LiveRow]>([])

    /// Tells the tutorial that this page reads scroll commands on its standard input (`scroll +N`, `scroll -N`),
    /// so the learner's scroll keys in the live view reach it; closing the input means the learner let go.
    /// Sends an `input` event; nothing when the page runs alone.
    public static func acceptScrollCommands() {
        let session = LessonSession.shared
        guard session.channel.isConnected else { return }
        session.emit(.input(commands: .scroll))
    }

    /// Draws one frame and sends it now.
    fileprivate static func send(_ draw: () -> RGBImage) {
        let frame = fitted(draw())
        LessonSession.shared.emit(.frame(encoded(frame)))
    }

    private static func encoded(_ image: RGBImage) -> PagePicture {
        PagePicture(width: image.width, height: image.height, base64: Base64.encode(image.pixels))
    }

    /// `image` scaled down to fit within the largest size, or itself when it already fits.
    static func fitted(_ image: RGBImage) -> RGBImage {
        guard image.width > largestWidth || image.height > largestHeight else { return image }
        let scale = min(Double(largestWidth) / Double(image.width), Double(largestHeight) / Double(image.height))
        return scaled(image, width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale)))
    }

    /// `image` resampled to `width`×`height` by averaging the source pixels each target pixel covers;
    /// pages use it for thumbnails.
    public static func scaled(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        guard width > 0, height > 0, image.width > 0, image.height > 0 else {
            return RGBImage(width: max(width, 0), height: max(height, 0), pixels: Array(repeating: 0, count: max(width, 0) * max(height, 0) * 3))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        // Through buffer pointers: a 640×480 photo is 921,600 bytes to average, at every row change of a page.
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let top = y * image.height / height
                    let bottom = max(top + 1, (y + 1) * image.height / height)
                    for x in 0..<width {
                        let left = x * image.width / width
                        let right = max(left + 1, (x + 1) * image.width / width)
                        var sum = (0, 0, 0)
                        for sy in top..<bottom {
                            var index = (sy * image.width + left) * 3
                            for _ in left..<right {
                                sum.0 += Int(source[index])
                                sum.1 += Int(source[index + 1])
                                sum.2 += Int(source[index + 2])
                                index += 3
                            }
                        }
                        let count = (bottom - top) * (right - left)
                        let target = (y * width + x) * 3
                        out[target] = UInt8(sum.0 / count)
                        out[target + 1] = UInt8(sum.1 / count)
                        out[target + 2] = UInt8(sum.2 / count)
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

/// Lets frames through at most once per `LiveView.frameInterval`, holding back only the newest of those that come sooner.
///
/// Frames are drawn and sent under the lock, so they leave in the order they were offered: a held frame sent
/// late by the timer can never land after a newer one.
final class FramePacer: Sendable {
    typealias Drawing = @Sendable () -> RGBImage

    private struct State {
        var lastSent: UInt64?
        var pending: Drawing?
        var scheduled = false

        mutating func sendPending() {
            guard let frame = pending else { return }
            pending = nil
            lastSent = monotonicNanoseconds()
            LiveView.send(frame)
        }
    }

    private let state = SanitizerVisibleLock(State())
    private let timer = DispatchQueue(label: "lessonkit.live-view")

    func offer(_ frame: @escaping Drawing, now: UInt64) -> Bool {
        let (sent, delay) = state.withLock { state -> (Bool, UInt64?) in
            if let last = state.lastSent, now &- last < LiveView.frameInterval {
                state.pending = frame
                guard !state.scheduled else { return (false, nil) }
                state.scheduled = true
                return (false, LiveView.frameInterval - (now &- last))
            }
            // A frame sent now makes any held one stale.
            state.pending = frame
            state.sendPending()
            return (true, nil)
        }
        if let delay {
            timer.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { [self] in
                state.withLock { state in
                    state.scheduled = false
                    state.sendPending()
                }
            }
        }
        return sent
    }

    func flush() {
        state.withLock { $0.sendPending() }
    }
}

/// Standard base64 (RFC 4648, with `=` padding), byte by byte: Foundation's encoder would first copy into `Data`.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            out.append(alphabet[chunk >> 18 & 63])
            out.append(alphabet[chunk >> 12 & 63])
            out.append(alphabet[chunk >> 6 & 63])
            out.append(alphabet[chunk & 63])
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let chunk = Int(bytes[index]) << 16 | (rest == 2 ? Int(bytes[index + 1]) << 8 : 0)
            out.append(alphabet[chunk >> 18 & 63])
            out.append(alphabet[chunk >> 12 & 63])
            out.append(rest == 2 ? alphabet[chunk >> 6 & 63] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
