import Testing
import TourInterface
import TourTestSupport

@Suite("Live view: colour pair cache", .bodiesBelowTheRunner)
struct ColorPairCacheTests {
    static func colors(_ foreground: Int16, _ background: Int16) -> ColorPairCache.Colors {
        .init(foreground: foreground, background: background)
    }

    @Test func aCombinationSeenBeforeGetsItsPairBack() {
        var cache = ColorPairCache(pairs: 16..<20)
        let first = cache.pair(for: Self.colors(196, 21))
        #expect(first == .init(pair: 16, isNew: true))
        #expect(cache.pair(for: Self.colors(21, 196)) == .init(pair: 17, isNew: true))
        #expect(cache.pair(for: Self.colors(196, 21)) == .init(pair: 16, isNew: false))
        #expect(cache.count == 2 && cache.evictions == 0)
    }

    @Test func moreCombinationsThanPairsReuseTheLeastRecentlyUsed() {
        var cache = ColorPairCache(pairs: 1..<4)
        for colour in Int16(0)..<3 { _ = cache.pair(for: Self.colors(colour, -1)) }
        // Touch the first, so the second is now the least recently used.
        #expect(cache.pair(for: Self.colors(0, -1)).isNew == false)
        let fourth = cache.pair(for: Self.colors(3, -1))
        #expect(fourth == .init(pair: 2, isNew: true))
        #expect(cache.colors(ofPair: 2) == Self.colors(3, -1))
        #expect(cache.evictions == 1)
        // The evicted combination needs a pair again, and takes the third's (now the oldest).
        #expect(cache.pair(for: Self.colors(1, -1)) == .init(pair: 3, isNew: true))
        #expect(cache.pair(for: Self.colors(0, -1)) == .init(pair: 1, isNew: false))
        #expect(cache.count == 3)
    }

    @Test func manyColoursThroughASmallTableStayConsistent() {
        var cache = ColorPairCache(pairs: 10..<74)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let colors = Self.colors(Int16.random(in: 16...40, using: &generator), Int16.random(in: 16...20, using: &generator))
            let allocation = cache.pair(for: colors)
            #expect((10..<74).contains(allocation.pair))
            // Whatever it was before, the pair handed out now stands for these colours.
            #expect(cache.colors(ofPair: allocation.pair) == colors)
        }
        #expect(cache.count == 64)
        #expect(cache.evictions > 0)
        // Each pair holds a different combination.
        #expect(Set((10..<74).compactMap { cache.colors(ofPair: $0) }).count == 64)
    }

    @Test func aSinglePairIsRedefinedForEachNewCombination() {
        var cache = ColorPairCache(pairs: 5..<6)
        #expect(cache.pair(for: Self.colors(1, 2)) == .init(pair: 5, isNew: true))
        #expect(cache.pair(for: Self.colors(1, 2)) == .init(pair: 5, isNew: false))
        #expect(cache.pair(for: Self.colors(3, 4)) == .init(pair: 5, isNew: true))
        #expect(cache.pair(for: Self.colors(1, 2)) == .init(pair: 5, isNew: true))
        #expect(cache.evictions == 2)
    }

    @Test func evictingAPairAlreadyUsedInThisFrameIsCounted() {
        var cache = ColorPairCache(pairs: 1..<3)
        _ = cache.pair(for: Self.colors(1, 1))
        _ = cache.pair(for: Self.colors(2, 2))
        cache.beginFrame()
        // The new frame uses one old combination and two new ones: the first new one takes the pair nobody used
        // this frame, the second must take one drawn with a moment ago.
        _ = cache.pair(for: Self.colors(2, 2))
        _ = cache.pair(for: Self.colors(3, 3))
        #expect(cache.evictions == 1 && cache.evictionsWithinFrame == 0)
        _ = cache.pair(for: Self.colors(4, 4))
        #expect(cache.evictions == 2 && cache.evictionsWithinFrame == 1)
    }
}
