/// Captions in large type for a room: each character drawn three columns wide and three rows tall in half blocks, from
/// a font five pixels tall (a classic 3×5 font), with a column between characters. Letters are drawn as capitals;
/// a character the font lacks is drawn as a space, so `fits` says whether a text can be set in it at all.
enum BigType {
    /// Rows of the big type, and the columns one character takes with the gap after it.
    static let height = 3
    static let advance = 4

    /// Whether every character of `text` is in the font and the text fits in `width` columns.
    static func fits(_ text: String, width: Int) -> Bool {
        text.count * advance - 1 <= width && text.uppercased().allSatisfy { glyphs[$0] != nil }
    }

    /// The three rows of `text` in big type, each `text.count * advance - 1` columns wide.
    static func rows(_ text: String) -> [String] {
        let pixels = text.uppercased().map { glyphs[$0] ?? glyphs[" "]! }
        return (0..<height).map { row in
            pixels.map { glyph in
                (0..<3).map { column -> Character in
                    let top = glyph[row * 2].dropFirst(column).first == "#"
                    let bottom = row * 2 + 1 < glyph.count && glyph[row * 2 + 1].dropFirst(column).first == "#"
                    switch (top, bottom) {
                    case (true, true): return "\u{2588}"
                    case (true, false): return "\u{2580}"
                    case (false, true): return "\u{2584}"
                    case (false, false): return " "
                    }
                }.map(String.init).joined()
            }.joined(separator: " ")
        }
    }

    /// Five rows of three pixels a character.
    private static let glyphs: [Character: [String]] = [
        "A": [".#.", "#.#", "###", "#.#", "#.#"], "B": ["##.", "#.#", "##.", "#.#", "##."],
        "C": [".##", "#..", "#..", "#..", ".##"], "D": ["##.", "#.#", "#.#", "#.#", "##."],
        "E": ["###", "#..", "##.", "#..", "###"], "F": ["###", "#..", "##.", "#..", "#.."],
        "G": [".##", "#..", "#.#", "#.#", ".##"], "H": ["#.#", "#.#", "###", "#.#", "#.#"],
        "I": ["###", ".#.", ".#.", ".#.", "###"], "J": ["..#", "..#", "..#", "#.#", ".#."],
        "K": ["#.#", "#.#", "##.", "#.#", "#.#"], "L": ["#..", "#..", "#..", "#..", "###"],
        "M": ["#.#", "###", "###", "#.#", "#.#"], "N": ["##.", "#.#", "#.#", "#.#", "#.#"],
        "O": [".#.", "#.#", "#.#", "#.#", ".#."], "P": ["##.", "#.#", "##.", "#..", "#.."],
        "Q": [".#.", "#.#", "#.#", "##.", ".##"], "R": ["##.", "#.#", "##.", "#.#", "#.#"],
        "S": [".##", "#..", ".#.", "..#", "##."], "T": ["###", ".#.", ".#.", ".#.", ".#."],
        "U": ["#.#", "#.#", "#.#", "#.#", "###"], "V": ["#.#", "#.#", "#.#", "#.#", ".#."],
        "W": ["#.#", "#.#", "###", "###", "#.#"], "X": ["#.#", "#.#", ".#.", "#.#", "#.#"],
        "Y": ["#.#", "#.#", ".#.", ".#.", ".#."], "Z": ["###", "..#", ".#.", "#..", "###"],
        "0": ["###", "#.#", "#.#", "#.#", "###"], "1": [".#.", "##.", ".#.", ".#.", "###"],
        "2": ["##.", "..#", ".#.", "#..", "###"], "3": ["##.", "..#", ".#.", "..#", "##."],
        "4": ["#.#", "#.#", "###", "..#", "..#"], "5": ["###", "#..", "##.", "..#", "##."],
        "6": [".##", "#..", "###", "#.#", "###"], "7": ["###", "..#", ".#.", ".#.", ".#."],
        "8": ["###", "#.#", "###", "#.#", "###"], "9": ["###", "#.#", "###", "..#", "##."],
        " ": ["...", "...", "...", "...", "..."], "?": ["##.", "..#", ".#.", "...", ".#."],
        "!": [".#.", ".#.", ".#.", "...", ".#."], ".": ["...", "...", "...", "...", ".#."],
        ",": ["...", "...", "...", ".#.", "#.."], "-": ["...", "...", "###", "...", "..."],
        ":": ["...", ".#.", "...", ".#.", "..."], "'": [".#.", ".#.", "...", "...", "..."],
        "(": [".#.", "#..", "#..", "#..", ".#."], ")": [".#.", "..#", "..#", "..#", ".#."],
        "=": ["...", "###", "...", "###", "..."], "+": ["...", ".#.", "###", ".#.", "..."],
        "/": ["..#", "..#", ".#.", "#..", "#.."], ">": ["#..", ".#.", "..#", ".#.", "#.."],
        "<": ["..#", ".#.", "#..", ".#.", "..#"], "\u{2192}": ["...", "..#", "###", "..#", "..."],
        "\u{00D7}": ["...", "#.#", ".#.", "#.#", "..."],
    ]
}
