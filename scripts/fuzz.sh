#!/usr/bin/env bash
# Fuzzes the parsers a learner or a page can feed, with libFuzzer through the Swift toolchain.
#
#   scripts/fuzz.sh SECONDS [target...]
#
# Each target is a folder under Tests/Fuzz/ (LiterateParser, TraceLineParser, BuildDiagnostics, ResetManifest)
# with an Entry.swift that defines LLVMFuzzerTestOneInput and a small seed corpus in corpus/. Every target named
# (all of them when none is) is built with coverage and run for SECONDS; what the fuzzer adds to the corpus stays
# in .build/fuzz/<target>/corpus, so the seeds in the repository stay small. A crash leaves its input in
# .build/fuzz/<target>/crash-*, and the script ends non-zero: turn each one into a regression test in the suites.
# Not run by CI. Needs the toolchain's libFuzzer (swiftc -sanitize=fuzzer).
set -euo pipefail

usage() { echo "usage: scripts/fuzz.sh SECONDS [target...]; the targets are: $(ls "$fuzz_sources" | tr '\n' ' ')" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
fuzz_sources="$root/Tests/Fuzz"
out="$root/.build/fuzz"
swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}

[[ $# -ge 1 && $1 =~ ^[0-9]+$ && $1 -gt 0 ]] || usage
seconds=$1
shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(ls "$fuzz_sources")
for target in "${targets[@]}"; do
    [[ -f "$fuzz_sources/$target/Entry.swift" ]] || { echo "fuzz.sh: no target '$target'" >&2; usage; }
done

# The libraries under test, instrumented once: PageProtocol, then TourCore against it. -enable-testing lets an
# entry reach internal parsers with @testable import. -wmo compiles a module in one job: without it swiftc -O starts
# one job per file, each type-checking the whole module again (TourCore's 83 files took over 40 minutes on a loaded
# two-core machine).
# TourCore imports CLinuxSystem, a header and its module map (nothing to build): the compiler is told where the map is.
flags=(-sanitize=fuzzer,address -parse-as-library -O -wmo -g -enable-testing -swift-version 6
    -Xcc "-fmodule-map-file=$root/Sources/CLinuxSystem/module.modulemap")
mkdir -p "$out/modules"
build_library() {
    local name=$1
    shift
    # A library whose sources, flags and compiler are those of its last build is kept: a second run starts fuzzing
    # at once. The stamp is written only after a build that succeeded.
    local stamp="$out/modules/$name.stamp" wanted
    wanted=$( { "$swiftc" --version 2>&1; echo "${flags[*]} $built_stamps"; printf "%s\n" "${@#"$out"/}"; cat "$@"; } | sha256sum | cut -d' ' -f1)
    if [[ -f "$out/modules/lib$name.a" && -f "$stamp" && $(cat "$stamp") == "$wanted" ]]; then
        echo "fuzz.sh: $name is unchanged since its last instrumented build" >&2
        built_stamps+=" $wanted"
        return
    fi
    rm -f "$stamp"
    echo "fuzz.sh: building $name with coverage" >&2
    "$swiftc" "${flags[@]}" -I "$out/modules" -module-name "$name" -emit-library -static \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule" -o "$out/modules/lib$name.a" "$@"
    echo "$wanted" > "$stamp"
    built_stamps+=" $wanted"
}
# What the libraries built so far were built from: TourCore is built again whenever PageProtocol is.
built_stamps=""
# Built from a copy, so an edit saved during the minutes the build takes cannot stop it.
rm -rf "$out/sources" && mkdir -p "$out/sources" && cp -R "$root/Sources/PageProtocol" "$root/Sources/TourCore" "$root/Sources/RunModel" \
    "$root/Sources/PageText" "$out/sources/"
build_library PageProtocol "$out"/sources/PageProtocol/*.swift
libraries=(-lPageProtocol)
# TourCore takes minutes to build instrumented: only when a target imports it.
needs_core() {
    local target
    for target in "${targets[@]}"; do grep -q "import TourCore" "$fuzz_sources/$target/Entry.swift" && return 0; done
    return 1
}
if needs_core; then
    # RunModel and PageText, modules of their own in the package (optimised in debug), are built into TourCore here,
    # without the file that re-exports them.
    mapfile -t core_sources < <(find "$out/sources/TourCore" "$out/sources/RunModel" "$out/sources/PageText" -name '*.swift' \
        ! -name OptimisedModules.swift | sort)
    build_library TourCore "${core_sources[@]}"
    libraries=(-lTourCore -lPageProtocol)
fi

failed=()
for target in "${targets[@]}"; do
    work="$out/$target"
    mkdir -p "$work/corpus"
    echo "fuzz.sh: building $target" >&2
    # gold warns once per AddressSanitizer helper symbol (about 130 lines, harmless): those warnings are left out.
    "$swiftc" "${flags[@]}" -I "$out/modules" -L "$out/modules" "${libraries[@]}" \
        -module-name "Fuzz$target" "$fuzz_sources/$target/Entry.swift" -o "$work/fuzzer" \
        2> >(grep -v "warning: Cannot export local symbol '__asan" >&2)
    echo "fuzz.sh: running $target for $seconds s" >&2
    # The seeds are read but never written: new inputs go to the first folder, the one under .build.
    # Swift's backtracer would take seconds per crash; libFuzzer reports the crash and keeps its input itself.
    if ! (cd "$work" && SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 ./fuzzer -max_total_time="$seconds" \
            -max_len=4096 -timeout=10 -print_final_stats=1 corpus "$fuzz_sources/$target/corpus" 2>&1 | tee "$work/last-run.log" | tail -n 25); then
        failed+=("$target")
    fi
    grep -q "^Done " "$work/last-run.log" || { [[ " ${failed[*]} " == *" $target "* ]] || failed+=("$target"); }
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz.sh: crashes or failures in: ${failed[*]} (inputs in $out/<target>/crash-*)" >&2
    exit 1
fi
echo "fuzz.sh: no crashes in ${targets[*]} (${seconds} s each)" >&2
