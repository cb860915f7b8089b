/// Two faces' layouts compared as feature-file text (`fontshell diff --fea`): the files
/// `Face.featureFile()` writes, as a unified diff of their lines.
public enum FeatureDiff {
    /// How many lines may differ before the diff gives up and says so (Myers' algorithm keeps
    /// a row per edit, so work and memory grow with the square of this).
    public static let maxEdits = 4000

    /// Unified-diff lines (`@@ -a,b +c,d @@`, ` `, `-`, `+`) between the two faces' feature
    /// files; empty when they are the same.
    public static func lines(_ a: Face, _ b: Face, context: Int = 2) throws -> [String] {
        let left = try a.featureFile().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let right = try b.featureFile().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return unified(left, right, context: context)
    }

    /// The edit script between two line lists as unified-diff hunks.
    public static func unified(_ a: [String], _ b: [String], context: Int = 2) -> [String] {
        // Lines as numbers, so the comparisons below are of integers.
        var ids: [String: Int] = [:]
        func id(_ line: String) -> Int {
            if let known = ids[line] { return known }
            ids[line] = ids.count
            return ids.count - 1
        }
        let x = a.map(id), y = b.map(id)
        guard let script = editScript(x, y) else {
            return ["@@ the layouts differ in more than \(maxEdits) lines; compare the two feature files (dump --fea) with a diff tool @@"]
        }
        // script: for each line of the merged sequence, (kind, index in a or b).
        var out: [String] = []
        var i = 0
        while i < script.count {
            guard script[i].kind != " " else {
                i += 1
                continue
            }
            // A hunk: from `context` lines before this change to `context` after the last change
            // that is no more than 2 × context lines from the next.
            let start = max(0, i - context)
            var end = i
            var k = i
            while k < script.count {
                if script[k].kind != " " {
                    end = k
                } else if k - end > 2 * context {
                    break
                }
                k += 1
            }
            let stop = min(script.count, end + context + 1)
            let slice = script[start..<stop]
            let aStart = slice.first { $0.kind != "+" }?.a ?? 0, bStart = slice.first { $0.kind != "-" }?.b ?? 0
            let aCount = slice.filter { $0.kind != "+" }.count, bCount = slice.filter { $0.kind != "-" }.count
            out.append("@@ -\(aStart + 1),\(aCount) +\(bStart + 1),\(bCount) @@")
            for e in slice { out.append(e.kind + (e.kind == "+" ? b[e.b] : a[e.a])) }
            i = stop
        }
        return out
    }

    struct Edit {
        var kind: String
        var a: Int
        var b: Int
    }

    /// Myers' O(ND) shortest edit script, after the common head and tail are set aside; nil past
    /// `maxEdits`.
    static func editScript(_ x: [Int], _ y: [Int]) -> [Edit]? {
        var head = 0
        while head < x.count, head < y.count, x[head] == y[head] { head += 1 }
        var tail = 0
        while tail < x.count - head, tail < y.count - head, x[x.count - 1 - tail] == y[y.count - 1 - tail] { tail += 1 }
        let a = Array(x[head..<(x.count - tail)]), b = Array(y[head..<(y.count - tail)])
        let n = a.count, m = b.count
        var middle: [Edit] = []
        if n > 0 || m > 0 {
            // v[k] for diagonals -d...d of each step d, kept to walk back.
            var trace: [[Int]] = []
            var v = [0, 0, 0]   // d = 0 needs v[1] (k = 1 at offset 1 + d)
            var found = false
            for d in 0...min(n + m, maxEdits) {
                var next = [Int](repeating: 0, count: 2 * d + 3)
                for k in stride(from: -d, through: d, by: 2) {
                    // v holds diagonals -(d-1)...(d-1) at offset (d - 1) + 1 = d; next at d + 1.
                    func previous(_ kk: Int) -> Int { v[kk + d] }
                    var px: Int
                    if k == -d || (k != d && previous(k - 1) < previous(k + 1)) {
                        px = previous(k + 1)
                    } else {
                        px = previous(k - 1) + 1
                    }
                    var py = px - k
                    while px < n, py < m, a[px] == b[py] {
                        px += 1
                        py += 1
                    }
                    next[k + d + 1] = px
                    if px >= n, py >= m {
                        found = true
                        break
                    }
                }
                trace.append(next)
                v = next
                if found { break }
            }
            guard found else { return nil }
            // Walk back through the steps.
            var px = n, py = m
            for d in stride(from: trace.count - 1, through: 0, by: -1) {
                let k = px - py
                let prior = d > 0 ? trace[d - 1] : [0, 0, 0]
                func previous(_ kk: Int) -> Int { prior[kk + d] }
                let cameFromInsert = d > 0 && (k == -d || (k != d && previous(k - 1) < previous(k + 1)))
                let pk = d == 0 ? 0 : (cameFromInsert ? k + 1 : k - 1)
                let startX = d == 0 ? 0 : previous(pk)
                let startY = startX - pk
                while px > startX, py > startY {
                    px -= 1
                    py -= 1
                    middle.append(Edit(kind: " ", a: px + head, b: py + head))
                }
                if d > 0 {
                    if cameFromInsert {
                        py -= 1
                        middle.append(Edit(kind: "+", a: px + head, b: py + head))
                    } else {
                        px -= 1
                        middle.append(Edit(kind: "-", a: px + head, b: py + head))
                    }
                }
            }
            middle.reverse()
        }
        let before = (0..<head).map { Edit(kind: " ", a: $0, b: $0) }
        let after = (0..<tail).map { Edit(kind: " ", a: x.count - tail + $0, b: y.count - tail + $0) }
        return before + middle + after
    }
}
