@preconcurrency import Glibc
import CLinuxSystem

/// Where `needle` first occurs in `haystack` at or after `start`, searched by the C library's `memmem`: the standard
/// library's generic searches look up type metadata at every byte they compare in an unoptimised build, and
/// Foundation's go through `NSString`. An empty needle occurs at `start`; nil where `needle` does not occur.
public func firstOffset(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
    guard start <= haystack.count else { return nil }
    if needle.isEmpty { return start }
    guard start < haystack.count, let base = haystack.baseAddress, let pattern = needle.baseAddress,
          let found = memmem(base + start, haystack.count - start, pattern, needle.count) else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
}
