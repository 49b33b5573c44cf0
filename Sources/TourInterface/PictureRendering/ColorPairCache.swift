/// Hands out curses colour pairs for (foreground, background) combinations on demand, from a finite table.
///
/// Curses draws colours only through numbered pairs, and a picture in 256 colours needs more combinations than
/// most tables hold. A combination seen before gets its pair back; a new one takes a free pair, or else the
/// least recently used one, which the caller then redefines (`init_pair`). Pure logic: the curses calls stay
/// with the caller.
public struct ColorPairCache: Sendable {
    /// A colour combination; -1 stands for the terminal's default colour, as curses has it.
    public struct Colors: Hashable, Sendable {
        public var foreground: Int16
        public var background: Int16

        public init(foreground: Int16, background: Int16) {
            self.foreground = foreground
            self.background = background
        }
    }

    /// The pair to draw with; when `isNew`, the caller must define it as `colors` before using it.
    public struct Allocation: Equatable, Sendable {
        public var pair: Int
        public var isNew: Bool

        public init(pair: Int, isNew: Bool) {
            self.pair = pair
            self.isNew = isNew
        }
    }

    /// The pair numbers this cache may hand out, for example 16..<COLOR_PAIRS when the interface keeps 1...15.
    public let pairs: Range<Int>
    /// How many times a pair was taken from one combination and given to another.
    public private(set) var evictions = 0
    /// How many of those pairs had been handed out since `beginFrame()`: cells already drawn with them this frame
    /// change colour, so a caller seeing this grow can draw the picture another way (in shades, say).
    public private(set) var evictionsWithinFrame = 0
    private var slotOf: [Colors: Int] = [:]
    private var colorsIn: [Colors] = []
    // A doubly linked list over slots, most recently used first, so a use and an eviction are O(1).
    private var newer: [Int] = []
    private var older: [Int] = []
    private var newest = -1
    private var oldest = -1
    /// When each slot was last handed out, and when the current frame began, on a counter of uses.
    private var lastUse: [Int] = []
    private var uses = 0
    private var frameStart = 0

    public init(pairs: Range<Int>) {
        precondition(!pairs.isEmpty, "a colour pair cache needs at least one pair")
        self.pairs = pairs
    }

    /// How many pairs are defined now.
    public var count: Int { colorsIn.count }

    /// Marks the start of drawing a new picture, for `evictionsWithinFrame`.
    public mutating func beginFrame() {
        frameStart = uses
    }

    /// The pair for `colors`, allocated (and possibly taken from the least recently used combination) if needed.
    public mutating func pair(for colors: Colors) -> Allocation {
        uses += 1
        if let slot = slotOf[colors] {
            moveToNewest(slot)
            lastUse[slot] = uses
            return Allocation(pair: pairs.lowerBound + slot, isNew: false)
        }
        let slot: Int
        if colorsIn.count < pairs.count {
            slot = colorsIn.count
            colorsIn.append(colors)
            newer.append(-1)
            older.append(-1)
            lastUse.append(uses)
            linkAsNewest(slot)
        } else {
            slot = oldest
            slotOf[colorsIn[slot]] = nil
            colorsIn[slot] = colors
            evictions += 1
            if lastUse[slot] > frameStart { evictionsWithinFrame += 1 }
            lastUse[slot] = uses
            moveToNewest(slot)
        }
        slotOf[colors] = slot
        return Allocation(pair: pairs.lowerBound + slot, isNew: true)
    }

    /// The combination `pair` is defined as now, nil if it is not in use.
    public func colors(ofPair pair: Int) -> Colors? {
        let slot = pair - pairs.lowerBound
        return colorsIn.indices.contains(slot) ? colorsIn[slot] : nil
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        // Unlink, then put in front.
        if older[slot] >= 0 { newer[older[slot]] = newer[slot] } else { oldest = newer[slot] }
        if newer[slot] >= 0 { older[newer[slot]] = older[slot] }
        linkAsNewest(slot)
    }

    private mutating func linkAsNewest(_ slot: Int) {
        older[slot] = newest
        newer[slot] = -1
        if newest >= 0 { newer[newest] = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
