/// The subtables of a table being written, as a graph: each node is a subtable's own bytes with
/// links (offsets) to its children; identical subtables (same bytes, same children) are one node,
/// so a Coverage used by forty lookups is written once. `layout` orders the nodes so every
/// offset points forward, and so that Offset16s stay short: a node's Offset16 children are
/// placed together right after it and then their own children, group by group, and the targets
/// of Offset32s (extension subtables) after everything else, as font compilers do.
struct SubtableGraph {
    struct Link: Hashable {
        let at: Int, size: Int, child: Int
    }
    struct Node: Hashable {
        let bytes: [UInt8]
        let links: [Link]
    }

    private(set) var nodes: [Node] = []
    /// Nodes written after all the others, in the order they were named (opaque subtables).
    private(set) var last: [Int] = []
    /// Where each node was first met, for messages.
    private(set) var paths: [String] = []
    private var index: [Node: Int] = [:]

    mutating func intern(_ node: Node, path: String) -> Int {
        if let id = index[node] { return id }
        nodes.append(node)
        paths.append(path)
        index[node] = nodes.count - 1
        return nodes.count - 1
    }

    mutating func placeLast(_ id: Int) { if !last.contains(id) { last.append(id) } }

    /// The table's bytes: nodes in an order where parents come before children, offsets patched.
    /// A subtable shared by parents too far apart for an Offset16 is given to the far parents as
    /// a copy of its own (a few passes at most); an offset that still does not fit throws
    /// `OffsetOverflow`.
    mutating func layout(root: Int) throws -> [UInt8] {
        for _ in 0..<8 {
            var overflows: [(parent: Int, link: Int)] = []
            let bytes = try attempt(root: root, overflows: &overflows)
            if overflows.isEmpty { return bytes }
            var parentCount = [Int](repeating: 0, count: nodes.count)
            for node in nodes { for link in node.links { parentCount[link.child] += 1 } }
            var copied = false
            for (parent, index) in overflows {
                let link = nodes[parent].links[index]
                guard parentCount[link.child] > 1 else { continue }
                parentCount[link.child] -= 1
                // A private copy (no interning: it must be a node of its own).
                nodes.append(nodes[link.child])
                paths.append(paths[link.child])
                var links = nodes[parent].links
                links[index] = Link(at: link.at, size: link.size, child: nodes.count - 1)
                nodes[parent] = Node(bytes: nodes[parent].bytes, links: links)
                copied = true
            }
            guard copied else { break }
        }
        var overflows: [(parent: Int, link: Int)] = []
        _ = try attempt(root: root, overflows: &overflows)
        if let (parent, index) = overflows.first {
            let child = nodes[parent].links[index].child
            throw OffsetOverflow(
                description:
                    "\(paths[child]): does not fit in an Offset\(nodes[parent].links[index].size * 8) from its parent (the subtable is too far away)",
                parentPath: paths[parent])
        }
        throw OffsetOverflow(description: "\(paths[root]): the subtables could not be laid out", parentPath: paths[root])
    }

    /// One layout; links whose offsets do not fit are listed in `overflows` (then the bytes are
    /// not usable).
    private func attempt(root: Int, overflows: inout [(parent: Int, link: Int)]) throws -> [UInt8] {
        // 1. A preferred order (rank): sibling groups of Offset16 children, far (Offset32) ones last.
        var rank = [Int](repeating: -1, count: nodes.count)
        let lastSet = Set(last)
        var next = 0
        var far: [Int] = []
        var farHead = 0
        func visit(_ start: Int) {
            var stack = [start]
            while let n = stack.popLast() {
                var near: [Int] = []
                for link in nodes[n].links where rank[link.child] < 0 && !lastSet.contains(link.child) {
                    if link.size >= 3 { far.append(link.child); continue }
                    rank[link.child] = next; next += 1
                    near.append(link.child)
                }
                stack.append(contentsOf: near.reversed())
            }
        }
        rank[root] = next; next += 1
        visit(root)
        while farHead < far.count {
            let f = far[farHead]; farHead += 1
            guard rank[f] < 0 else { continue }
            rank[f] = next; next += 1
            visit(f)
        }
        for n in last where rank[n] < 0 { rank[n] = next; next += 1 }
        // 2. Place in rank order, but a node only after all its parents (offsets are unsigned).
        var parents = [Int](repeating: 0, count: nodes.count)
        for node in nodes { for link in node.links { parents[link.child] += 1 } }
        var ready = RankHeap()
        ready.push(rank: rank[root], id: root)
        var position = [Int](repeating: -1, count: nodes.count)
        var order: [Int] = []
        var total = 0
        while let n = ready.pop() {
            position[n] = total
            total += nodes[n].bytes.count
            order.append(n)
            for link in nodes[n].links {
                parents[link.child] -= 1
                if parents[link.child] == 0 { ready.push(rank: rank[link.child], id: link.child) }
            }
        }
        // 3. Write and patch.
        var w = BinaryWriter(capacity: total)
        for n in order {
            let start = w.count
            w.append(nodes[n].bytes)
            for (index, link) in nodes[n].links.enumerated() {
                let offset = position[link.child] - position[n]
                guard offset > 0, offset <= (link.size == 2 ? 0xFFFF : link.size == 3 ? 0xFF_FFFF : 0xFFFF_FFFF) else {
                    overflows.append((n, index))
                    continue
                }
                w.patch(offset, size: link.size, at: start + link.at)
            }
        }
        return w.bytes
    }
}

/// A min-heap of node ids by rank.
struct RankHeap {
    private var items: [(rank: Int, id: Int)] = []

    mutating func push(rank: Int, id: Int) {
        items.append((rank, id))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].rank < items[parent].rank else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Int? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && items[l].rank < items[m].rank { m = l }
                if r < items.count && items[r].rank < items[m].rank { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top.id
    }
}

/// A table whose subtables cannot all be reached with their offsets' sizes, however they are
/// ordered. GSUB and GPOS answer it by moving lookups behind extension subtables.
public struct OffsetOverflow: ToolError, Sendable {
    public let description: String
    /// Where the offset that did not fit is ("GPOS.LookupList.Lookup[3].SubTable[0].ExtSubTable").
    public var parentPath = ""

    /// The lookup and subtable the overflowing offset is in, when it is inside one.
    public var lookupSubtable: (lookup: Int, subtable: Int)? {
        func number(after key: String) -> Int? {
            let path = Array(parentPath.utf8), key = Array(key.utf8)
            guard path.count >= key.count,
                let at = (0...(path.count - key.count)).first(where: { path[$0..<($0 + key.count)].elementsEqual(key) })
            else { return nil }
            return Int(String(decoding: path[(at + key.count)...].prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self))
        }
        guard let l = number(after: "Lookup["), let s = number(after: "SubTable[") else { return nil }
        return (l, s)
    }
}
