import Testing
import TourCore
import TourTestSupport

/// `firstOffset`, the byte search the page catalog and the tests' scratch copies share.
@Suite("Byte search", .bodiesBelowTheRunner)
struct ByteSearchTests {
    static func offset(of needle: String, in haystack: String, from start: Int = 0) -> Int? {
        Array(haystack.utf8).withUnsafeBytes { haystack in Array(needle.utf8).withUnsafeBytes { firstOffset(of: $0, in: haystack, from: start) } }
    }

    @Test func theFirstOccurrenceAtOrAfterTheStart() {
        #expect(Self.offset(of: "ab", in: "xxabyab") == 2)
        #expect(Self.offset(of: "ab", in: "xxabyab", from: 3) == 5)
        #expect(Self.offset(of: "ab", in: "xxabyab", from: 6) == nil, "a match must start at or after the start and fit before the end")
        #expect(Self.offset(of: "abc", in: "ab") == nil)
        #expect(Self.offset(of: "b", in: "ab", from: 2) == nil)
        #expect(Self.offset(of: "b", in: "ab", from: 9) == nil)
    }

    @Test func anEmptyNeedleOccursAtTheStartAndNothingOccursInAnEmptyHaystack() {
        #expect(Self.offset(of: "", in: "abc", from: 1) == 1)
        #expect(Self.offset(of: "", in: "", from: 0) == 0)
        #expect(Self.offset(of: "a", in: "") == nil)
    }
}
