import PageProtocol
import Synchronization

/// What a run's live view shows: the latest frame and the latest list, kept beside the run's `RunRecord`.
///
/// Only the latest of each is kept, so however fast a page sends, memory stays bounded and the screen draws
/// whatever is newest when it next redraws; frames replaced before they were drawn are counted as dropped.
/// Feed it every trace event of the run with `apply(_:)`; events of other kinds are ignored.
///
/// A frame is kept as the page sent it, checked only for what needs no decoding (`EncodedLiveFrame.check`), and
/// decoded the first time something reads `frame`, that is when the screen draws it: a page may send frames faster
/// than the screen draws, and one replaced before anything drew it is never decoded. The decoded frame is kept with
/// the encoded one, shared by every copy of this state that holds that frame.
public struct LiveViewState: Sendable, Equatable {
    /// One row of the list: a picture, or a placeholder when `picture` is nil, with its caption.
    public struct Row: Sendable, Equatable {
        public var caption: String
        public var picture: LiveFrame?
        /// The larger pictures the row offers for the full-size view, each with its caption; a part whose `detail`
        /// event has not arrived (or was unusable) has no picture.
        public var fullSize: [Row]

        public init(caption: String, picture: LiveFrame? = nil, fullSize: [Row] = []) {
            self.caption = caption
            self.picture = picture
            self.fullSize = fullSize
        }
    }

    /// The newest frame that passed the arrival checks, with its decoding once something asked for it.
    private var newestFrame: LazyLiveFrame?
    /// Whether the counters below already include the decoding of `newestFrame`.
    private var newestFrameCounted = false
    /// The newest frame that decoded well before `newestFrame` came: shown when `newestFrame` turns out corrupt.
    private var lastGoodFrame: LiveFrame?
    /// The list, top to bottom; empty when the page shows none.
    public private(set) var rows: [Row] = []
    /// Grows by one with every change worth a redraw, so a view redraws only when it differs from what it drew.
    public private(set) var version = 0
    /// Frames received that passed the checks that need no decoding; one found corrupt when drawn also counts in
    /// `rejectedPictures`.
    public private(set) var framesReceived = 0
    /// Good frames replaced by a newer one before `markDrawn()` was called: the screen never showed them.
    public private(set) var framesDropped = 0
    /// Frames decoded, counted when the frame is replaced or `markDrawn()` is called: at most one per frame drawn.
    public private(set) var framesDecoded = 0
    /// Frame and row events whose picture was unusable (wrong size, corrupt payload): counted and skipped. A frame's
    /// corrupt payload is found when it is drawn, and counted by the next `markDrawn()` or when it is replaced.
    public private(set) var rejectedPictures = 0
    public private(set) var lastRejection: LiveFrameError?
    /// Row and detail pictures refused because the list's pictures would have held more than `rowPictureBudget`.
    public private(set) var picturesOverBudget = 0
    private var frameDrawn = true

    public init() {}

    /// True once the page has drawn anything: the interface shows the pane from then on.
    public var isActive: Bool { hasFrame || !rows.isEmpty }

    /// Whether the page sent a frame that passed the arrival checks; unlike `frame`, this decodes nothing.
    public var hasFrame: Bool { newestFrame != nil }

    /// The frame to draw, decoded now if it has not been yet: the newest, or the last good one when the newest
    /// turns out corrupt; nil until a frame arrives.
    public var frame: LiveFrame? {
        guard let newestFrame else { return nil }
        switch newestFrame.decoded() {
        case .success(let frame): return frame
        case .failure: return lastGoodFrame
        }
    }

    /// Bytes the frames held take: the newest one's base64, its pixels once decoded, and the last good frame's
    /// pixels, which are the newest one's own once that was counted as drawn.
    public var frameBytes: Int {
        let fallback = lastGoodFrame?.pixels.count ?? 0
        guard let newestFrame else { return fallback }
        let encoded = newestFrame.encoded.base64.utf8.count
        guard case .success(let decoded)? = newestFrame.decodedIfAsked else { return encoded + fallback }
        return encoded + decoded.pixels.count + (newestFrameCounted ? 0 : fallback)
    }

    public mutating func apply(_ event: PageEvent) {
        switch event.kind {
        case .frame(let sent):
            switch EncodedLiveFrame.check(sent) {
            case .success(let encoded):
                countNewestFrame()
                framesReceived += 1
                if !frameDrawn { framesDropped += 1 }
                newestFrame = LazyLiveFrame(encoded)
                newestFrameCounted = false
                frameDrawn = false
                version += 1
            case .failure(let error):
                reject(error)
            }
        case .rows(let count):
            guard (0...Self.largestRowCount).contains(count) else { return }
            if count < rows.count {
                rows.removeLast(rows.count - count)
            } else {
                rows += Array(repeating: Row(caption: ""), count: count - rows.count)
            }
            version += 1
        case .row(let index, let caption, let sent, let announcedParts):
            guard rows.indices.contains(index) else { return }
            let parts = min(max(announcedParts ?? 0, 0), Self.largestPartCount)
            // The same number of parts as before means the row kept its full-size pictures; only new ones follow.
            let kept = rows[index].fullSize.count == parts ? rows[index].fullSize : Array(repeating: Row(caption: ""), count: parts)
            var row = Row(caption: caption, fullSize: kept)
            if let sent {
                switch LiveFrame.decode(sent) {
                case .success(let picture):
                    guard fitsBudget(picture, replacing: rows[index].picture) else { return }
                    row.picture = picture
                case .failure(let error):
                    // The row keeps what it showed: a garbled or half picture is never drawn.
                    reject(error)
                    return
                }
            }
            rows[index] = row
            version += 1
        case .detail(let index, let part, let caption, let sent):
            guard rows.indices.contains(index), rows[index].fullSize.indices.contains(part) else { return }
            switch LiveFrame.decode(sent) {
            case .success(let picture):
                guard fitsBudget(picture, replacing: rows[index].fullSize[part].picture) else { return }
                rows[index].fullSize[part] = Row(caption: caption, picture: picture)
                version += 1
            case .failure(let error):
                reject(error)
            }
        case .hello, .begin, .end, .mark, .out, .result, .knob, .op, .dep, .expect, .crash, .input, .task, .queue, .phase, .unknown:
            return
        }
    }

    /// Tells the state the screen now shows the current frame, so the next one replaces a drawn frame, not a dropped one.
    public mutating func markDrawn() {
        frameDrawn = true
        countNewestFrame()
    }

    /// Counts the newest frame's decoding, once: as decoded, and as rejected if it was corrupt, or else as the
    /// frame to fall back on.
    private mutating func countNewestFrame() {
        guard !newestFrameCounted, let outcome = newestFrame?.decodedIfAsked else { return }
        newestFrameCounted = true
        framesDecoded += 1
        switch outcome {
        case .success(let frame): lastGoodFrame = frame
        case .failure(let error): reject(error)
        }
    }

    /// A list longer than this is a bad event, not a list: a screen shows a few dozen rows at most.
    public static let largestRowCount = 1000
    /// More full-size pictures than this for one row are not a view but a bad event; the rest are ignored.
    public static let largestPartCount = 8

    /// The most the list's pictures may hold: 1,000 rows of 1,024×1,024 pictures with 8 full-size parts each would be
    /// 28 GB; LessonKit's largest picture is 46,080 bytes, so this is room for 180 of them.
    public static let rowPictureBudget = 8 << 20

    /// Bytes of pixels the rows' pictures and their full-size parts hold.
    public var rowPictureBytes: Int {
        rows.reduce(0) { total, row in
            total + (row.picture?.pixels.count ?? 0) + row.fullSize.reduce(0) { $0 + ($1.picture?.pixels.count ?? 0) }
        }
    }

    /// Whether `picture` in place of `old` keeps the list's pictures within `rowPictureBudget`; counts it when not.
    private mutating func fitsBudget(_ picture: LiveFrame, replacing old: LiveFrame?) -> Bool {
        guard rowPictureBytes - (old?.pixels.count ?? 0) + picture.pixels.count <= Self.rowPictureBudget else {
            picturesOverBudget += 1
            return false
        }
        return true
    }

    private mutating func reject(_ error: LiveFrameError) {
        rejectedPictures += 1
        lastRejection = error
    }
}

/// One frame as the page sent it, decoded the first time it is asked for and then kept. A class, so that every copy of
/// a `LiveViewState` holding this frame shares one decoding; the lock makes that safe from any thread.
private final class LazyLiveFrame: Sendable, Equatable {
    let encoded: EncodedLiveFrame
    private let decoding = Mutex<Result<LiveFrame, LiveFrameError>?>(nil)

    init(_ encoded: EncodedLiveFrame) {
        self.encoded = encoded
    }

    /// The decoded frame, decoding it on the first call.
    func decoded() -> Result<LiveFrame, LiveFrameError> {
        decoding.withLock { decoding in
            if let decoding { return decoding }
            let outcome = encoded.decoded()
            decoding = outcome
            return outcome
        }
    }

    /// Two hold the same frame when the page sent the same picture; whether either was decoded yet does not matter.
    static func == (left: LazyLiveFrame, right: LazyLiveFrame) -> Bool {
        left.encoded == right.encoded
    }

    /// The decoded frame if something asked for it already, else nil; never decodes.
    var decodedIfAsked: Result<LiveFrame, LiveFrameError>? {
        decoding.withLock { $0 }
    }
}
