/// Where a page draws its random delays and choices: with `--seed N` (or `TOUR_SEED=N`) a SplitMix64 generator that
/// follows the seed, so a rehearsal and the talk wait the same times and choose the same things; without one, the
/// system's generator, and every run differs as before.
///
/// Each generator is named by a stream: its numbers depend on the seed and that name alone, never on what other
/// threads drew first. A page whose threads each draw from a stream of their own (one per client, say) gets the same
/// numbers for each of them whatever order the threads run in.
///
///     var random = PageRandom(stream: "client 3")
///     Simulated.wait(.random(in: 0...0.4, using: &random))
public struct PageRandom: RandomNumberGenerator {
    private var seeded: SplitMix64?
    private var system = SystemRandomNumberGenerator()

    /// The generator for `stream`, following this run's seed if it has one.
    public init(stream: String) {
        self.init(stream: stream, seed: LessonSession.shared.settings.seed)
    }

    /// The generator for `stream` under `seed`; nil draws from the system's generator.
    public init(stream: String, seed: UInt64?) {
        seeded = seed.map { SplitMix64(state: $0 ^ Self.fnv1a(stream)) }
    }

    public mutating func next() -> UInt64 {
        if seeded != nil { return seeded!.next() }
        return system.next()
    }

    /// A stable 64-bit hash of `text` (FNV-1a): Swift's `Hasher` is seeded afresh in every process.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// Steele, Lea and Flood's SplitMix64: small, fast, and every seed gives a good sequence.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
