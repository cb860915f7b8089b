import FontModel
import LuaBridge

/// Pushing model values and reading Lua values for the model, shared by the objects.
extension LuaStack {
    func push(bounds: GlyphBounds?) {
        guard let b = bounds else { pushNil(); return }
        pushTable(fieldCount: 4)
        for (key, v) in [("xMin", b.xMin), ("yMin", b.yMin), ("xMax", b.xMax), ("yMax", b.yMax)] {
            push(v); setField(key, in: -2)
        }
    }

    /// A Lua list of the strings (also used by the command, for arguments to Lua chunks).
    public func push(strings: [String]) {
        pushTable(arrayCount: Int32(strings.count))
        for (i, s) in strings.enumerated() { push(s); setIndex(i + 1, in: -2) }
    }

    func push(integers: [Int]) {
        pushTable(arrayCount: Int32(integers.count))
        for (i, v) in integers.enumerated() { push(v); setIndex(i + 1, in: -2) }
    }
}

extension LuaCall {
    /// `__pairs` over a snapshot: with the snapshot table on top, returns (next, snapshot, nil).
    func returnNextOverSnapshot() -> Int32 {
        stack.getGlobal("next")
        stack.insert(at: -2)
        stack.pushNil()
        return 3
    }

    /// A character given as a one-character string or a code point.
    func character(_ i: Int32) throws -> UInt32 {
        if stack.type(at: i) == .number {
            let v = try integer(i)
            guard (0...0x10FFFF).contains(v) else { throw LuaArgumentError(i, "code point \(v) out of range") }
            return UInt32(v)
        }
        guard let s = stack.string(at: i) else { throw expected(i, "character (string or code point)") }
        let scalars = Array(s.unicodeScalars)
        guard scalars.count == 1, let c = scalars.first else {
            throw LuaArgumentError(i, "expected one character, got \(scalars.count) in '\(s)'")
        }
        return c.value
    }

    /// Checks the options argument `i`: nil/absent (when `optional`) or a table whose keys are
    /// all in `known`. An unknown key (a typo) is an error with a suggestion, never ignored.
    /// Returns whether a table was given.
    @discardableResult
    func options(_ i: Int32, _ known: [String], optional: Bool = true) throws -> Bool {
        // A preview's information table, passed on because the preview was the last argument
        // (`show(preview.text(face, "Hi"))`, `preview.compare(a, preview.text(...))`): not options.
        if i == stack.top, stack.isMarked(tableAt: i, as: Show.previewInfo) { stack.truncate(to: i - 1) }
        guard try table(i, optional: optional) else { return false }
        for key in stack.keys(ofTableAt: i) where !known.contains(key) {
            var message = "unknown option '\(key)'"
            if let near = closestName(to: key, in: known) { message += " (did you mean '\(near)'?)" }
            throw LuaArgumentError(i, message + "; options: " + known.joined(separator: ", "))
        }
        return true
    }

    /// Reads an optional integer option `key` from the options table at `i`.
    func intOption(_ i: Int32, _ key: String) throws -> Int? {
        guard stack.type(at: i) == .table else { return nil }
        return try field(i, key) { idx in
            switch stack.type(at: idx) {
            case .nil: return nil
            case .number where stack.isInteger(at: idx): return stack.integer(at: idx)
            default: throw LuaArgumentError(i, "option '\(key)' must be an integer, got \(stack.describedType(at: idx))")
            }
        }
    }

    func boolOption(_ i: Int32, _ key: String, default value: Bool) throws -> Bool {
        guard stack.type(at: i) == .table else { return value }
        return try field(i, key) { idx in
            switch stack.type(at: idx) {
            case .nil: return value
            case .boolean: return stack.truthy(at: idx)
            default: throw LuaArgumentError(i, "option '\(key)' must be a boolean, got \(stack.describedType(at: idx))")
            }
        }
    }

    func stringOption(_ i: Int32, _ key: String) throws -> String? {
        guard stack.type(at: i) == .table else { return nil }
        return try field(i, key) { idx in
            switch stack.type(at: idx) {
            case .nil: return nil
            case .string: return stack.string(at: idx)
            default: throw LuaArgumentError(i, "option '\(key)' must be a string, got \(stack.describedType(at: idx))")
            }
        }
    }
}
