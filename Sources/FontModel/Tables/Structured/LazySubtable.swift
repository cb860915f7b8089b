/// A subtable not decoded yet (`Member.lazy`: a lookup's subtables): where it starts in its
/// table's bytes and what the decoder knew there. Decoded on first use and kept; an error in it
/// is found then (naming the table, the path and the file offset), so a font whose layout is
/// partly broken still opens and answers everything that does not need the broken part.
public final class LazySubtable: @unchecked Sendable {
    /// The table's bytes, and the decoding work all its lazy subtables may still do together
    /// (the eager decoder's bound, shared, so offsets fanning out at one subtable stay bounded).
    final class Source: @unchecked Sendable {
        let data: [UInt8]
        /// Absolute file offset of data[0], for error messages.
        let fileBase: Int
        let name: String
        var budget: Int
        /// Bytes kept as opaque subtables so far (`valueKeepingDamage`).
        var keptBytes = 0
        let lock = PosixLock()
        init(data: [UInt8], fileBase: Int, name: String, budget: Int) {
            self.data = data; self.fileBase = fileBase; self.name = name; self.budget = budget
        }
    }

    let source: Source
    let start: Int
    let shape: Shape
    let scope: StructScope
    let version: UInt32?
    /// How deep it hangs (its parents' nesting counts towards `StructureCodec.maximumDepth`).
    let depth: Int
    /// Where it hangs: "LookupList.Lookup[3].SubTable[0]".
    let path: String
    private var cached: Result<StructValue, Error>?

    init(source: Source, start: Int, shape: Shape, scope: StructScope, version: UInt32?, depth: Int, path: String) {
        self.source = source; self.start = start; self.shape = shape; self.scope = scope; self.version = version; self.depth = depth;
        self.path = path
    }

    /// The decoded subtable (decoded once; a failure is kept and thrown again).
    public func value() throws -> StructValue {
        try source.lock.withLock {
            if let cached { return try cached.get() }
            let result = Result {
                try source.data.withUnsafeBytes { buffer in
                    try StructureCodec.decodeSubtable(
                        BinaryReader(buffer, base: source.fileBase), at: start, shape, scope: scope,
                        version: version, depth: depth, source: source, path: path)
                }
            }
            cached = result
            return try result.get()
        }
    }

    /// The decoded subtable, or when it does not decode its bytes as an opaque subtable (in a
    /// switched shape, under the case its selector chose). The bytes kept this way in one table
    /// are bounded (four times the table, plus 64 KB): past that the error is thrown.
    public func valueKeepingDamage() throws -> StructValue {
        do { return try value().resolvedDeep(keepingDamage: true) } catch {
            let kept = source.data.count - start
            let allowed = source.lock.withLock { () -> Bool in
                guard source.keptBytes + kept <= 4 * source.data.count + 65536 else { return false }
                source.keptBytes += kept
                return true
            }
            guard allowed, start < source.data.count else { throw error }
            // The reason without the path (the dump and validate say where).
            var reason = "\(error)", offset: Int?
            if let e = error as? FontError {
                let prefix = source.name + "." + path + ": "
                reason = e.message.hasPrefix(prefix) ? String(e.message.dropFirst(prefix.count)) : e.message
                offset = e.offset
            }
            let opaque = StructValue.opaque(
                OpaqueSubtable(
                    bytes: Array(source.data[start...]), reason: reason, offset: offset,
                    isUndescribed: error is UndescribedStructure))
            if case .switched(let selector, _) = shape, let key = scope.lookup(selector) { return .switched(Int(key), opaque) }
            return opaque
        }
    }

    /// Whether it was decoded (tests count what a query decodes).
    public var isDecoded: Bool {
        source.lock.withLock { cached != nil }
    }

    /// Same place in the same bytes: equal without decoding.
    func isSamePlace(as other: LazySubtable) -> Bool {
        self === other || (source === other.source && start == other.start && path == other.path)
    }
}

extension StructValue {
    /// The value with a lazy subtable decoded (itself for everything else).
    public func resolved() throws -> StructValue {
        if case .lazy(let l) = self { return try l.value() }
        return self
    }

    /// The value with every lazy subtable inside it decoded; keeping damage, a subtable that
    /// does not decode becomes `.opaque` instead of an error (dumps, and saving an edited table).
    public func resolvedDeep(keepingDamage: Bool = false) throws -> StructValue {
        switch self {
        case .lazy(let l): return keepingDamage ? try l.valueKeepingDamage() : try l.value().resolvedDeep()
        case .record(let f): return .record(try f.resolvedDeep(keepingDamage: keepingDamage))
        case .formatted(let n, let f): return .formatted(n, try f.resolvedDeep(keepingDamage: keepingDamage))
        case .list(let items):
            guard items.contains(where: \.containsLazy) else { return self }
            return .list(try items.map { try $0.resolvedDeep(keepingDamage: keepingDamage) })
        case .switched(let k, let inner): return .switched(k, try inner.resolvedDeep(keepingDamage: keepingDamage))
        default: return self
        }
    }

    /// The opaque subtables inside the value (not looking into lazy ones), by path.
    func opaqueParts(_ shape: Shape, path: String) -> [(path: String, part: OpaqueSubtable)] {
        switch (shape, self) {
        case (_, .opaque(let o)): return [(path, o)]
        case (.offset(let target, _), _): return opaqueParts(target, path: path)
        case (.recursive(_, let make), _): return opaqueParts(make(), path: path)
        case (.switched(_, let cases), .switched(let k, let inner)): return cases[k].map { inner.opaqueParts($0.shape, path: path) } ?? []
        case (.record(let r), .record(let f)): return f.opaqueParts(r, path: path)
        case (.formats(_, let records), .formatted(let n, let f)), (.formats8(_, let records), .formatted(let n, let f)):
            return records[n].map { f.opaqueParts($0, path: path) } ?? []
        default: return []
        }
    }

    /// Why the first subtable kept as bytes inside the value did not decode (nil: none).
    public var firstOpaqueReason: String? {
        switch self {
        case .opaque(let o): o.description
        case .record(let f), .formatted(_, let f): f.values.lazy.compactMap(\.firstOpaqueReason).first
        case .list(let items): items.lazy.compactMap(\.firstOpaqueReason).first
        case .switched(_, let inner): inner.firstOpaqueReason
        default: nil
        }
    }

    var containsLazy: Bool {
        switch self {
        case .lazy: true
        case .record(let f), .formatted(_, let f): f.values.contains(where: \.containsLazy)
        case .list(let items): items.contains(where: \.containsLazy)
        case .switched(_, let inner): inner.containsLazy
        default: false
        }
    }
}

extension StructFields {
    func opaqueParts(_ record: Record, path: String) -> [(path: String, part: OpaqueSubtable)] {
        var out: [(path: String, part: OpaqueSubtable)] = []
        for member in record.valueMembers {
            guard let v = self[member.name] else { continue }
            let here = path.isEmpty ? member.name : path + "." + member.name
            if member.count != nil, case .list(let items) = v {
                for (k, item) in items.enumerated() { out += item.opaqueParts(member.shape, path: "\(here)[\(k)]") }
            } else {
                out += v.opaqueParts(member.shape, path: here)
            }
        }
        return out
    }

    func resolvedDeep(keepingDamage: Bool = false) throws -> StructFields {
        guard values.contains(where: \.containsLazy) else { return self }
        var out = self
        for (name, value) in zip(names, values) where value.containsLazy {
            out[name] = try value.resolvedDeep(keepingDamage: keepingDamage)
        }
        return out
    }
}
