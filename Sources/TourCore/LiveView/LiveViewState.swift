import PageProtocol

/// What a run's live view shows: the latest frame and the latest list, kept beside the run's `RunRecord`.
///
/// Only the latest of each is kept, so however fast a page sends, memory stays bounded and the screen draws
/// whatever is newest when it next redraws; frames replaced before they were drawn are counted as dropped.
/// Feed it every trace event of the run with `apply(_:)`; events of other kinds are ignored.
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

    /// The latest good frame, nil until one arrives.
    public private(set) var frame: LiveFrame?
    /// The list, top to bottom; empty when the page shows none.
    public private(set) var rows: [Row] = []
    /// Grows by one with every change worth a redraw, so a view redraws only when it differs from what it drew.
    public private(set) var version = 0
    /// Good frames received.
    public private(set) var framesReceived = 0
    /// Good frames replaced by a newer one before `markDrawn()` was called: the screen never showed them.
    public private(set) var framesDropped = 0
    /// Frame and row events whose picture was unusable (wrong size, corrupt payload): counted and skipped.
    public private(set) var rejectedPictures = 0
    public private(set) var lastRejection: LiveFrameError?
    /// Row and detail pictures refused because the list's pictures would have held more than `rowPictureBudget`.
    public private(set) var picturesOverBudget = 0
    private var frameDrawn = true

    public init() {}

    /// True once the page has drawn anything: the interface shows the pane from then on.
    public var isActive: Bool { frame != nil || !rows.isEmpty }

    public mutating func apply(_ event: PageEvent) {
        switch event.kind {
        case .frame(let sent):
            switch LiveFrame.decode(sent) {
            case .success(let decoded):
                framesReceived += 1
                if !frameDrawn { framesDropped += 1 }
                frame = decoded
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
        case .hello, .begin, .end, .mark, .out, .result, .knob, .op, .dep, .expect, .crash, .input, .unknown:
            return
        }
    }

    /// Tells the state the screen now shows the current frame, so the next one replaces a drawn frame, not a dropped one.
    public mutating func markDrawn() {
        frameDrawn = true
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
