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
        self.source = source; self.start = start; self.shape = shape; self.scope = scope; self.version = version; self.depth = depth; self.path = path
    }

    /// The decoded subtable (decoded once; a failure is kept and thrown again).
    public func value() throws -> StructValue {
        try source.lock.withLock {
            if let cached { return try cached.get() }
            let result = Result { try source.data.withUnsafeBytes { buffer in
                try StructureCodec.decodeSubtable(BinaryReader(buffer, base: source.fileBase), at: start, shape, scope: scope,
                                                  version: version, depth: depth, source: source, path: path)
            } }
            cached = result
            return try result.get()
        }
    }

    /// Whether it was decoded (tests count what a query decodes).
    public var isDecoded: Bool {
        source.lock.withLock { cached != nil }
    }

    /// Same place in the same bytes: equal without decoding.
    func isSamePlace(as other: LazySubtable) -> Bool { self === other || (source === other.source && start == other.start && path == other.path) }
}

extension StructValue {
    /// The value with a lazy subtable decoded (itself for everything else).
    public func resolved() throws -> StructValue {
        if case .lazy(let l) = self { return try l.value() }
        return self
    }

    /// The value with every lazy subtable inside it decoded.
    public func resolvedDeep() throws -> StructValue {
        switch self {
        case .lazy(let l): return try l.value().resolvedDeep()
        case .record(let f): return .record(try f.resolvedDeep())
        case .formatted(let n, let f): return .formatted(n, try f.resolvedDeep())
        case .list(let items):
            guard items.contains(where: \.containsLazy) else { return self }
            return .list(try items.map { try $0.resolvedDeep() })
        case .switched(let k, let inner): return .switched(k, try inner.resolvedDeep())
        default: return self
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
    func resolvedDeep() throws -> StructFields {
        guard values.contains(where: \.containsLazy) else { return self }
        var out = self
        for (name, value) in zip(names, values) where value.containsLazy { out[name] = try value.resolvedDeep() }
        return out
    }
}
