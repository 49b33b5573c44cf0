@preconcurrency import Glibc
import CNcursesw
import TourCore
import TourInterface
import PageProtocol

/// The terminal through ncurses: opens it, draws cell buffers by changing only the cells that differ
/// from the last frame, reads keys and mouse actions, and gives the terminal back as it found it.
///
/// Not thread-safe: ncurses is not, so one serial queue owns it.
final class CursesScreen: Screen {
    struct OpenError: Error, CustomStringConvertible {
        let description: String
    }

    let theme: ColorTheme
    let glyphs: Glyphs
    private var previous: CellBuffer?
    private var pairs: [ColorPairKey: Int16] = [:]
    /// Pairs below this number are the interface's own colours, handed out once; the rest serve pictures.
    private let interfacePairLimit: Int32
    /// Pictures bring more colour combinations than the pair table holds: the least recently used pair is redefined.
    private var picturePairs: ColorPairCache?

    private struct ColorPairKey: Hashable {
        var foreground: Int16
        var background: Int16
    }

    /// Opens the terminal named by TERM on stdin and stdout, if it can draw the interface: its terminfo entry must
    /// know how to move the cursor (`cup`), which `dumb` and other line-only types cannot. The entry is checked
    /// before `newterm`, which would otherwise start drawing; `newterm`, unlike `initscr`, returns instead of
    /// exiting when the terminal is unknown, so the caller can say what to do instead. The colours are `themeName`'s
    /// where the terminal shows 256.
    init(environment: [String: String], themeName: ThemeName = .dark) throws {
        guard let terminal = environment["TERM"], !terminal.isEmpty else {
            throw OpenError(description: "TERM is not set, so the terminal's capabilities are unknown")
        }
        let named = EchoedInput.quoted(terminal)
        let setTerm = "set TERM to your terminal's type, for example TERM=xterm-256color"
        switch sw_terminal_addresses_cursor(terminal) {
        case -1:
            throw OpenError(description: "the terminal type \(named) is unknown to ncurses (\(setTerm))")
        case 0:
            throw OpenError(description: "the terminal type \(named) cannot move the cursor (its terminfo entry has no cup), so the screen cannot be drawn (\(setTerm))")
        default:
            break
        }
        guard newterm(nil, sw_stdout(), sw_stdin()) != nil else {
            throw OpenError(description: "the terminal type \(named) is unknown to ncurses (\(setTerm))")
        }
        TerminalRestore.cursesIsActive.store(true, ordering: .sequentiallyConsistent)
        // First, so that the modes set below are sent to the terminal in the state that lasts: coming back from
        // `endwin` sends the saved modes again, but not the keypad's, which left arrow keys unread.
        Self.bufferWholeFrames()
        cbreak()
        noecho()
        nonl()
        keypad(sw_stdscr(), true)
        nodelay(sw_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        // Presses, not clicks: with no click interval ncurses reports a press at once instead of waiting to pair it.
        mouseinterval(0)
        mousemask(sw_BUTTON1_PRESSED() | sw_BUTTON4_PRESSED() | sw_BUTTON5_PRESSED(), nil)

        let wantsColor = has_colors() && ColorTheme.choose(colors: 256, hasColors: true, environment: environment) != .monochrome
        // COLORS and COLOR_PAIRS are only known once start_color has run.
        if wantsColor {
            start_color()
            use_default_colors()
        }
        theme = ColorTheme.choose(colors: wantsColor ? sw_COLORS() : 0, hasColors: wantsColor, environment: environment, name: themeName)
        // init_pair numbers pairs with a short.
        let maximumPairs = theme == .monochrome ? 0 : min(sw_COLOR_PAIRS(), 32_767)
        interfacePairLimit = min(256, maximumPairs / 2)
        picturePairs = theme.isExtended && maximumPairs > interfacePairLimit
            ? ColorPairCache(pairs: Int(interfacePairLimit)..<Int(maximumPairs)) : nil
        glyphs = Self.localeIsUTF8 ? .unicode : .ascii
    }

    /// Makes ncurses send each frame in as few writes as its buffer allows.
    ///
    /// Until a program has left curses once (`endwin`) and come back (`refresh`), ncurses 6.4 counts the screen as
    /// not yet set up, and flushes its output at every cursor move it makes (`_nc_mvcur`, for "low-level terminfo
    /// programs"): a frame reached the terminal in a hundred writes or more, and a terminal, or tmux, could show it
    /// half drawn. Leaving and coming back once, before the first frame, is what `EditorHandoff` does for an editor.
    private static func bufferWholeFrames() {
        def_prog_mode()
        endwin()
        reset_prog_mode()
        refresh()
    }

    /// Pictures in colour need the 256-colour palette and pairs to spare; eight colours draw them in shades.
    var pictureDepth: PictureColorDepth {
        if glyphs == .ascii { return .ascii }
        if picturePairs != nil { return .colors256 }
        return theme == .basic ? .colors8 : .monochrome
    }

    /// setlocale has already run, so the codeset is the one the learner's environment asked for.
    static var localeIsUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    var size: Size {
        Size(width: Int(sw_getmaxx(sw_stdscr())), height: Int(sw_getmaxy(sw_stdscr())))
    }

    /// Reads the new size from the kernel and tells ncurses, after SIGWINCH.
    func adoptTerminalSize() -> Size {
        if let size = TerminalSize.ofStandardOutput() {
            resizeterm(Int32(size.height), Int32(size.width))
        }
        previous = nil
        return size
    }

    /// Forgets what is on screen, so the next draw repaints every cell (Ctrl-L, or after a resize).
    func invalidate() {
        previous = nil
        clearok(sw_stdscr(), true)
    }

    /// Draws `buffer`, sending only the cells that changed since the last frame.
    func draw(_ buffer: CellBuffer) {
        // Once the terminal is given back (an ending signal, whose restore does not wait for a busy loop for more
        // than 300 ms), a frame drawn after it would bring the interface back over the shell's screen.
        guard TerminalRestore.cursesIsActive.load(ordering: .sequentiallyConsistent) else { return }
        let diff = FrameDiff(from: previous, to: buffer)
        if diff.clearsFirst { werase(sw_stdscr()) }
        var character = cchar_t()
        for change in diff.changes {
            var text = change.cell.character.unicodeScalars.prefix(5).map { wchar_t(bitPattern: $0.value) }
            text.append(0)
            let (attributes, pair) = attributesAndPair(for: change.cell.style)
            setcchar(&character, text, attributes, pair, nil)
            mvadd_wch(Int32(change.y), Int32(change.x), &character)
        }
        previous = buffer
        wnoutrefresh(sw_stdscr())
        doupdate()
    }

    private func attributesAndPair(for style: CellStyle) -> (attr_t, Int16) {
        if style.pictureForeground != nil || style.pictureBackground != nil {
            return (sw_A_NORMAL(), picturePair(foreground: style.pictureForeground, background: style.pictureBackground))
        }
        var attributes = sw_A_NORMAL()
        if style.bold { attributes |= sw_A_BOLD() }
        if style.dim || (style.foreground == .muted && !theme.isExtended) { attributes |= sw_A_DIM() }
        if style.reverse { attributes |= sw_A_REVERSE() }
        if style.underline { attributes |= sw_A_UNDERLINE() }
        return (attributes, pair(foreground: theme.index(of: style.foreground), background: theme.index(of: style.background)))
    }

    /// The colour pair for these colours, set up the first time it is needed; 0 (the default) if pairs run out.
    private func pair(foreground: Int16?, background: Int16?) -> Int16 {
        guard foreground != nil || background != nil else { return 0 }
        let key = ColorPairKey(foreground: foreground ?? -1, background: background ?? -1)
        if let known = pairs[key] { return known }
        let next = Int16(pairs.count + 1)
        guard Int32(next) < interfacePairLimit else { return 0 }
        init_pair(next, key.foreground, key.background)
        pairs[key] = next
        return next
    }

    /// The pair for a picture cell's palette colours, defined (or redefined) when the cache hands out a new one.
    private func picturePair(foreground: UInt8?, background: UInt8?) -> Int16 {
        guard var cache = picturePairs else { return 0 }
        let colors = ColorPairCache.Colors(foreground: foreground.map(Int16.init) ?? -1, background: background.map(Int16.init) ?? -1)
        let allocation = cache.pair(for: colors)
        picturePairs = cache
        if allocation.isNew { init_pair(Int16(allocation.pair), colors.foreground, colors.background) }
        return Int16(allocation.pair)
    }

    /// Gives the terminal back: normal mode, cursor shown, the shell's screen restored.
    func close() {
        TerminalRestore.restore()
    }
}
