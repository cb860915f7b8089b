/// Builds an ItemVariationStore from rows of deltas added one at a time (a feature file's
/// variable values), then lays it out as fontTools' `VarStore.optimize` does: rows grouped by
/// which columns they use and how wide, groups merged while that saves bytes, rows sorted, wide
/// columns first, unused regions dropped. A row's id from `add` maps to its final
/// (outer << 16 | inner) in `build`'s result.
struct VariationStoreBuilder {
    typealias Span = ItemVariationStore.AxisSpan

    let axisCount: Int
    /// Regions in the order they were first named; each has one span per axis.
    private(set) var regions: [[Span]] = []
    private var regionIndex: [[Span]: Int] = [:]
    /// Rows by id: region index → delta (zeros left out).
    private(set) var rows: [[Int: Int]] = []
    private var rowIndex: [[Int: Int]: Int] = [:]

    init(axisCount: Int) { self.axisCount = axisCount }

    var isEmpty: Bool { rows.isEmpty }

    /// The index of a region (axis index → span; other axes do not take part), added if new.
    mutating func region(_ spans: [Int: Span]) -> Int {
        let full = (0..<axisCount).map { spans[$0] ?? Span(start: 0, peak: 0, end: 0) }
        if let i = regionIndex[full] { return i }
        regions.append(full)
        regionIndex[full] = regions.count - 1
        return regions.count - 1
    }

    /// Adds a row (region index → delta) and returns its id; an equal row gets the same id.
    mutating func add(_ deltas: [Int: Int]) -> Int {
        let row = deltas.filter { $0.value != 0 }
        if let id = rowIndex[row] { return id }
        rows.append(row)
        rowIndex[row] = rows.count - 1
        return rows.count - 1
    }

    /// The store, and for each row id its variation index (nil for a row of zeros: no
    /// variation, 0xFFFF/0xFFFF in a Device).
    func build() -> (store: ItemVariationStore, indexes: [Int?]) {
        let n = regions.count
        let full = rows.map { row in (0..<n).map { row[$0] ?? 0 } }

        // Group the distinct rows by their characteristics: per column, whether it is used
        // and how many bytes it needs.
        var groups: [[UInt8]: Encoding] = [:]
        for row in Set(full) where row.contains(where: { $0 != 0 }) {
            let chars = Encoding.characteristics(row)
            groups[chars, default: Encoding(chars)].items.insert(row)
        }
        var todo: [Encoding?] = groups.values.sorted(by: Encoding.narrower)

        // Merge the pair that saves the most bytes while any merge saves some (ties: the
        // earliest pair), as a heap of candidate merges.
        var heap = MergeHeap()
        for (i, a) in todo.enumerated() {
            for (j, b) in todo.enumerated().dropFirst(i + 1) {
                if let a, let b, case let gain = a.gain(merging: b), gain > 0 { heap.push((gain, i, j)) }
            }
        }
        while let (_, i, j) = heap.pop() {
            guard let a = todo[i], let b = todo[j] else { continue }
            todo[i] = nil
            todo[j] = nil
            var merged = Encoding(zip(a.chars, b.chars).map { $0 | $1 })
            merged.items = a.items.union(b.items)
            for k in todo.indices {
                guard let other = todo[k] else { continue }
                if other.chars == merged.chars {
                    merged.items.formUnion(other.items)
                    todo[k] = nil
                    continue
                }
                let gain = merged.gain(merging: other)
                if gain > 0 { heap.push((gain, k, todo.count)) }
            }
            todo.append(merged)
        }

        // Each group becomes one VarData (more when past 65,535 rows), rows sorted.
        var data: [ItemVariationStore.VariationData] = []
        var finalIndex: [[Int]: Int] = [:]
        for group in todo.compactMap({ $0 }).sorted(by: Encoding.narrower) {
            let items = group.items.sorted { $0.lexicographicallyPrecedes($1) }
            for chunk in stride(from: 0, to: items.count, by: 0xFFFF) {
                let part = Array(items[chunk..<min(chunk + 0xFFFF, items.count)])
                for (inner, row) in part.enumerated() { finalIndex[row] = data.count << 16 | inner }
                data.append(Self.data(part, columns: n))
            }
        }

        // Drop regions no data uses.
        let used = Set(data.flatMap(\.regionIndexes)).sorted()
        var renumber = [Int](repeating: 0, count: n)
        for (new, old) in used.enumerated() { renumber[old] = new }
        for k in data.indices { data[k].regionIndexes = data[k].regionIndexes.map { renumber[$0] } }
        let store = ItemVariationStore(regions: used.map { regions[$0] }, data: data)
        return (store, full.map { finalIndex[$0] })
    }

    /// A VarData over `rows` (all `columns` wide): unused columns dropped, the others ordered
    /// by width (4, 2, then 1 byte), keeping region order within a width.
    private static func data(_ rows: [[Int]], columns: Int) -> ItemVariationStore.VariationData {
        let widths = (0..<columns).map { k in rows.reduce(0) { max($0, byteWidth($1[k])) } }
        let order = [4, 2, 1].flatMap { w in (0..<columns).filter { widths[$0] == w } }
        var deltas: [Int32] = []
        deltas.reserveCapacity(rows.count * order.count)
        for row in rows { for k in order { deltas.append(Int32(row[k])) } }
        return ItemVariationStore.VariationData(regionIndexes: order, deltas: deltas, itemCount: rows.count)
    }

    private static func byteWidth(_ v: Int) -> Int { v == 0 ? 0 : (-128...127).contains(v) ? 1 : (-32768...32767).contains(v) ? 2 : 4 }

    /// A group of rows sharing characteristics: per column four bits (fontTools' scheme: used,
    /// wider than a byte; with 32-bit rows, two bits for used and two for wider than 16 bits).
    struct Encoding {
        let chars: [UInt8]
        let width: Int
        let columns: [Bool]
        let overhead: Int
        var items: Set<[Int]> = []

        init(_ chars: [UInt8]) {
            self.chars = chars
            width = chars.reduce(0) { $0 + $1.nonzeroBitCount }
            columns = chars.map { $0 != 0 }
            overhead = Self.overhead(columns)
        }

        /// A VarData's fixed cost: its offset, header and one region index per column.
        static func overhead(_ columns: [Bool]) -> Int { 4 + 6 + 2 * columns.filter { $0 }.count }

        static func characteristics(_ row: [Int]) -> [UInt8] {
            if row.contains(where: { !(-32768...32767).contains($0) }) {
                return row.map { v in (v != 0 ? 0b0011 : 0) | (!(-32768...32767).contains(v) ? 0b1100 : 0) }
            }
            return row.map { v in (v != 0 ? 0b0001 : 0) | (!(-128...127).contains(v) ? 0b0010 : 0) }
        }

        func gain(merging other: Encoding) -> Int {
            let chars = zip(self.chars, other.chars).map { $0 | $1 }
            let width = chars.reduce(0) { $0 + $1.nonzeroBitCount }
            let combined = Self.overhead(zip(columns, other.columns).map { $0 || $1 })
            return overhead + other.overhead - combined - (width - self.width) * items.count - (width - other.width) * other.items.count
        }

        /// Narrower first; equal widths by the characteristics read as one number, last column
        /// most significant.
        static func narrower(_ a: Encoding, _ b: Encoding) -> Bool {
            if a.width != b.width { return a.width < b.width }
            for k in a.chars.indices.reversed() where a.chars[k] != b.chars[k] { return a.chars[k] < b.chars[k] }
            return false
        }
    }

    /// Candidate merges, the largest gain first, then the smallest first index, then second.
    struct MergeHeap {
        private var items: [(gain: Int, i: Int, j: Int)] = []

        private static func before(_ a: (gain: Int, i: Int, j: Int), _ b: (gain: Int, i: Int, j: Int)) -> Bool {
            (-a.gain, a.i, a.j) < (-b.gain, b.i, b.j)
        }

        mutating func push(_ item: (gain: Int, i: Int, j: Int)) {
            items.append(item)
            var k = items.count - 1
            while k > 0 {
                let parent = (k - 1) / 2
                guard Self.before(items[k], items[parent]) else { break }
                items.swapAt(k, parent)
                k = parent
            }
        }

        mutating func pop() -> (gain: Int, i: Int, j: Int)? {
            guard !items.isEmpty else { return nil }
            items.swapAt(0, items.count - 1)
            let top = items.removeLast()
            var k = 0
            while true {
                let l = 2 * k + 1, r = l + 1
                var smallest = k
                if l < items.count, Self.before(items[l], items[smallest]) { smallest = l }
                if r < items.count, Self.before(items[r], items[smallest]) { smallest = r }
                if smallest == k { break }
                items.swapAt(k, smallest)
                k = smallest
            }
            return top
        }
    }
}
