/// What the validator checks in GSUB and GPOS beyond their structure: indices that point at
/// features and lookups that exist, extension subtables that agree on the type they wrap, and
/// contextual lookups that do not call themselves round in a cycle (HarfBuzz would give up at
/// its nesting limit; other shapers may not).
enum LayoutCheck {
    static func problems(_ table: StructuredTable) throws -> [String] {
        let root = try table.rootKeepingDamage   // damaged parts are StructureCheck's to report
        let tag = table.tag
        let extensionType = tag == "GSUB" ? 7 : 9
        let validTypes = tag == "GSUB" ? 1...8 : 1...9
        var out: [String] = []
        let lookups = Face.items(root["LookupList"]?.fields?["Lookup"])
        let features = Face.items(root["FeatureList"]?.fields?["FeatureRecord"])
        for (f, record) in features.enumerated() {
            for index in Face.items(record.fields?["Feature"]?.fields?["LookupListIndex"]).compactMap(\.int) where index >= lookups.count {
                out.append(
                    "FeatureList.FeatureRecord[\(f)] (\(Face.tagText(record.fields?["FeatureTag"]))): lookup \(index) does not exist (\(lookups.count) lookups)"
                )
            }
        }
        for (s, script) in Face.items(root["ScriptList"]?.fields?["ScriptRecord"]).enumerated() {
            let fields = script.fields?["Script"]?.fields
            var systems = [fields?["DefaultLangSys"]]
            systems += Face.items(fields?["LangSysRecord"]).map { $0.fields?["LangSys"] }
            for system in systems.compactMap({ $0?.fields }) {
                let indices =
                    Face.items(system["FeatureIndex"]).compactMap(\.int)
                    + [system["ReqFeatureIndex"]?.int].compactMap { $0 }.filter { $0 != 0xFFFF }
                for index in indices where index >= features.count {
                    out.append(
                        "ScriptList.ScriptRecord[\(s)] (\(Face.tagText(script.fields?["ScriptTag"]))): feature \(index) does not exist (\(features.count) features)"
                    )
                }
            }
        }
        // Lookups each contextual lookup calls.
        var calls: [[Int]] = Array(repeating: [], count: lookups.count)
        for (i, lookup) in lookups.enumerated() {
            let type = Face.lookupType(lookup)
            if !validTypes.contains(type) { out.append("LookupList.Lookup[\(i)]: LookupType \(type) is not a \(tag.trimmed) lookup type") }
            let subtables = Face.items(lookup.fields?["SubTable"])
            if type == extensionType {
                let wrapped = Set(subtables.map { Face.unwrapExtension($0).0 })
                if wrapped.count > 1 {
                    out.append(
                        "LookupList.Lookup[\(i)]: extension subtables wrap different lookup types (\(wrapped.sorted().map(String.init).joined(separator: ", ")))"
                    )
                }
                if wrapped.contains(extensionType) { out.append("LookupList.Lookup[\(i)]: an extension subtable wraps another extension") }
            }
            for subtable in subtables { collectCalls(Face.inner(subtable), into: &calls[i]) }
            for target in calls[i] where target >= lookups.count {
                out.append("LookupList.Lookup[\(i)]: calls lookup \(target), which does not exist (\(lookups.count) lookups)")
            }
        }
        // Cycles: depth-first search with colours (0 unvisited, 1 on the path, 2 done), iterative
        // so a long chain cannot exhaust the stack.
        var colour = Array(repeating: 0, count: lookups.count)
        var reported = Set<Int>()
        for start in lookups.indices where colour[start] == 0 {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            colour[start] = 1
            while let top = stack.last {
                let targets = calls[top.node].filter { $0 < lookups.count }
                if top.next < targets.count {
                    stack[stack.count - 1].next += 1
                    let t = targets[top.next]
                    if colour[t] == 1 {
                        let cycle = stack.map(\.node).drop { $0 != t } + [t]
                        if reported.insert(t).inserted {
                            out.append(
                                "LookupList: contextual lookups call each other in a cycle: \(cycle.map { "lookup \($0)" }.joined(separator: " → "))"
                            )
                        }
                    } else if colour[t] == 0 {
                        colour[t] = 1
                        stack.append((t, 0))
                    }
                } else {
                    colour[top.node] = 2
                    stack.removeLast()
                }
            }
        }
        return out
    }

    /// The LookupListIndex of every SubstLookupRecord/PosLookupRecord inside a subtable.
    static func collectCalls(_ value: StructValue, into calls: inout [Int]) {
        switch value {
        case .record(let f), .formatted(_, let f):
            for (name, v) in zip(f.names, f.values) {
                if name == "LookupListIndex", let index = v.int { calls.append(Int(index)) } else { collectCalls(v, into: &calls) }
            }
        case .list(let items): for item in items { collectCalls(item, into: &calls) }
        case .switched(_, let inner): collectCalls(inner, into: &calls)
        default: break
        }
    }
}
