import CEditLine
import LazyLibraries
import FontModel
import FontRender
import FontScript
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive loop, as lua.c 5.4 does it and a little more: `return <line>` is tried first
/// (so expressions print, `=expr` too), statements continue over lines while the syntax error
/// ends in <eof>, results are pretty-printed, Ctrl-C interrupts running code (and clears the line
/// at the prompt), Ctrl-D exits. With stdin not a terminal it reads lines without prompts.
struct REPL {
    let lua: LuaState
    /// The state completion asks; the REPL is single-threaded.
    nonisolated(unsafe) static var current: LuaState?
    /// The lines of a statement typed so far (before the current line), for completion.
    nonisolated(unsafe) static var pending = ""
    /// The truncation warning last printed, so it is not repeated after every line.
    nonisolated(unsafe) static var reportedTruncation: String?

    func run() {
        let interactive = isatty(0) != 0
        LuaState.installInterruptHandler()
        if interactive { setUpLineEditor() }
        let history = historyPath()
        if interactive, let history { _ = read_history(history) }
        if interactive {
            print("FontShell \(version) — Lua 5.4. help() for the API, Ctrl-D to leave.")
            lua.stack.getGlobal("face")
            if lua.stack.type(at: -1) != .nil { print("face = \(lua.stack.describe(at: -1))") }
            lua.stack.pop()
        }
        var buffer = ""
        while true {
            let prompt = buffer.isEmpty ? "> " : ">> "
            REPL.pending = buffer
            guard let line = interactive ? readEditedLine(prompt) : readLine() else {
                if interactive && LuaState.takeInterrupt() {
                    // Ctrl-C at the prompt: drop the line (and any unfinished statement).
                    print("")
                    buffer = ""
                    continue
                }
                // Input ended inside a statement: say so, rather than drop it silently.
                if !buffer.isEmpty, let error = incompleteChunkError(buffer) { printError(error) }
                break
            }
            buffer = buffer.isEmpty ? line : buffer + "\n" + line
            switch evaluate(buffer) {
            case .needsMore:
                continue
            case .done:
                if interactive && !buffer.allSatisfy(\.isWhitespace) { add_history(buffer) }
                buffer = ""
            }
        }
        if interactive {
            print("")
            if let history { _ = write_history(history) }
        }
        fflush(nil)
    }

    enum Outcome { case done, needsMore }

    /// The compiler's message for a statement left unfinished ("stdin:1: syntax error near <eof>").
    func incompleteChunkError(_ code: String) -> String? {
        do {
            try lua.load(code, name: "=stdin")
            lua.stack.pop()
            return nil
        } catch let e as LuaError {
            return e.message
        } catch {
            return nil
        }
    }

    /// Compiles `return <code>;` or `<code>`, runs it protected and prints results or the error.
    func evaluate(_ code: String) -> Outcome {
        let base = lua.top
        let source = code.hasPrefix("=") ? "return " + code.dropFirst() : code
        do {
            do {
                try lua.load("return " + source + ";", name: "=stdin")
            } catch {
                try lua.load(source, name: "=stdin")
            }
        } catch let e as LuaError {
            if e.message.hasSuffix("<eof>") { return .needsMore }
            printError(e.message)
            return .done
        } catch {
            return .done
        }
        defer { fflush(nil) }
        do {
            try lua.callInterruptible()
        } catch let e as LuaError {
            printError(e.tracebackSaysMore ? e.description : e.message)
            return .done
        } catch {
            return .done
        }
        let count = lua.top - base
        if count > 0 { print((1...count).map { pretty(at: base + $0) }.joined(separator: "\t")) }
        // Images are shown where the user types (when the terminal can: TerminalGraphics).
        if count > 0 && TerminalGraphics.current().imageProtocol != .none {
            for k in 1...count where lua.stack.classInfo(at: base + k)?.name == "Image" { showImage(at: base + k) }
        }
        lua.stack.pop(count)
        if let message = truncationMessage(), message != REPL.reportedTruncation {
            printError("warning: " + message)
            REPL.reportedTruncation = message
        }
        return .done
    }

    /// show(value), run protected: a picture that cannot be shown is not worth an error here.
    func showImage(at index: Int32) {
        let s = lua.stack
        s.getGlobal("show")
        s.pushValue(at: index)
        _ = try? lua.call(arguments: 1, results: 0)   // an error is popped with its message
    }

    /// fontshell.pretty(value), run protected.
    func pretty(at index: Int32) -> String {
        let s = lua.stack
        s.getGlobal("fontshell")
        FontScript.pushModuleField("pretty", ofTableAt: -1, s)
        s.pushValue(at: index)
        do {
            try lua.call(arguments: 1, results: 1)
            let text = s.string(at: -1) ?? s.describe(at: -1)
            s.pop(2)
            return text
        } catch {
            s.pop()
            return s.describe(at: index)
        }
    }

    var version: String {
        lua.stack.getGlobal("fontshell")
        defer { lua.stack.pop(2) }
        lua.stack.getField("version", in: -1)
        return lua.stack.string(at: -1) ?? "?"
    }

    func historyPath() -> String? {
        if let custom = getenv("FONTSHELL_HISTORY") { return String(cString: custom) }
        guard let home = getenv("HOME") else { return nil }
        return String(cString: home) + "/.fontshell_history"
    }

    // MARK: line editing (libedit)

    func setUpLineEditor() {
        setlocale(LC_CTYPE, "")   // or libedit drops non-ASCII input
        REPL.current = lua
        // libedit's variables, through their addresses (LazyLibraries.h: libedit loads on first use).
        address_of_rl_readline_name().pointee = UnsafePointer(strdup("fontshell"))
        address_of_rl_attempted_completion_function().pointee = REPL.complete
        // Words end at spaces and operators, not inside face['OS/2'].usW or at ':' and '.'.
        let breaks = strdup(" \t\n(),;=+-*<>~{}#")
        address_of_rl_completer_word_break_characters().pointee = breaks
        address_of_rl_basic_word_break_characters().pointee = UnsafePointer(breaks)
        address_of_rl_getc_function().pointee = REPL.readKey
        using_history()
    }

    /// Keys not yet handed to libedit (the rest of a burst that held a terminal reply).
    nonisolated(unsafe) static var pendingKeys: [UInt8] = []

    /// How libedit reads keys (it takes each value as one character): a character at a time
    /// from the terminal, UTF-8 decoded, as its own reader does, except that while a picture's
    /// terminal query may still be answered (a slow link: the reply came after the 0.25 s
    /// deadline), a burst starting with ESC is looked at whole and the reply taken out, so
    /// "62;4c" never lands on the line. -1 ends the line: at the end of input, or for Ctrl-C
    /// (the REPL then sees the interrupt); other signals (a resize) read on.
    static let readKey: @convention(c) (UnsafeMutablePointer<FILE>?) -> Int32 = { file in
        let fd = file.map { fileno($0) } ?? 0
        func nextByte() -> Int32 {
            if !pendingKeys.isEmpty { return Int32(pendingKeys.removeFirst()) }
            while true {
                var byte: UInt8 = 0
                let n = read(fd, &byte, 1)
                if n < 0 && errno == EINTR && !LuaState.interruptPending { continue }
                guard n == 1 else { return -1 }
                guard byte == 0x1B, TerminalGraphics.lateReplyExpected else { return Int32(byte) }
                // A reply arrives as one burst: what follows within 30 ms belongs to it.
                var burst = [byte]
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                while burst.count < 512, poll(&poller, 1, 30) > 0, read(fd, &byte, 1) == 1 { burst.append(byte) }
                pendingKeys = TerminalGraphics.takingLateReplies(from: burst)
                if !pendingKeys.isEmpty { return Int32(pendingKeys.removeFirst()) }
            }
        }
        let lead = nextByte()
        guard lead >= 0xC0 else { return lead }
        // A multi-byte character: its continuation bytes, decoded to the code point.
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var bytes = [UInt8(lead)]
        for _ in 1..<length {
            let next = nextByte()
            guard next >= 0 else { return -1 }
            bytes.append(UInt8(next))
        }
        return Int32(String(decoding: bytes, as: UTF8.self).unicodeScalars.first?.value ?? 0xFFFD)
    }

    func readEditedLine(_ prompt: String) -> String? {
        _ = LuaState.takeInterrupt()
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// Tab completion: asks fontshell.complete(word) and hands libedit the candidates.
    static let complete: @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = {
        text, start, _ in
        address_of_rl_attempted_completion_over().pointee = 1
        guard let text, let lua = REPL.current else { return nil }
        let word = String(cString: text)
        // Inside face:addFeatures[[ … ]], the words of the feature-file syntax.
        let before =
            address_of_rl_line_buffer().pointee.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(start)), as: UTF8.self)
            } ?? ""
        if FeatureFileWords.endsInsideFeatureText(REPL.pending + "\n" + before + word) {
            // libedit's word can start in the Lua ("face:addFeatures[[looku"): its feature-file
            // tail is what completes, and the candidates keep the head.
            let tail = String(word.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }.reversed())
            let head = String(word.dropLast(tail.count))
            return completionList(FeatureFileWords.keywords.filter { $0.hasPrefix(tail) && $0 != tail }.map { head + $0 }, appending: " ")
        }
        let s = lua.stack
        s.getGlobal("fontshell")
        FontScript.pushModuleField("complete", ofTableAt: -1, s)
        s.push(word)
        var candidates: [String] = []
        do {
            try lua.call(arguments: 1, results: 1)
            candidates = s.items(ofListAt: -1) { _ in s.string(at: -1) }.compactMap { $0 }
            s.pop(2)
        } catch {
            s.pop()
        }
        // No space after: completions are often followed by . or :
        return completionList(candidates, appending: nil)
    }

    /// Candidates as libedit wants them: [common prefix, candidates..., NULL], all malloc'd.
    static func completionList(_ candidates: [String], appending: Character?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard !candidates.isEmpty else { return nil }
        address_of_rl_completion_append_character().pointee = appending.map { Int32($0.asciiValue ?? 0) } ?? 0
        var common = candidates[0]
        for c in candidates.dropFirst() {
            while !c.hasPrefix(common) { common.removeLast() }
        }
        guard let memory = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (candidates.count + 2)) else { return nil }
        let list = memory.assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
        list[0] = strdup(common)
        for (i, c) in candidates.enumerated() { list[i + 1] = strdup(c) }
        list[candidates.count + 1] = nil
        return list
    }
}

extension LuaError {
    /// Whether the traceback names more than the line typed: a frame that is neither C code
    /// nor the typed chunk's main body (a function the user defined, a script it loaded). A
    /// simple mistake's `[C]: in metamethod 'index'` and `stdin:1: in main chunk` are left out.
    var tracebackSaysMore: Bool {
        traceback.split(separator: "\n").dropFirst().contains { (line: Substring) -> Bool in
            let frame = line.drop(while: \.isWhitespace)
            return !frame.hasPrefix("[C]:") && !frame.hasSuffix("in main chunk") && frame != "(...tail calls...)"
        }
    }
}
