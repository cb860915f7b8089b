import FontModel
import LuaBridge

/// Lua view of meta, a read-only copy: entries by tag, `face.meta.dlng` and `face.meta.slng` as
/// text, other tags as their bytes. Edit it through TTX (`face:fuse`).
enum MetaValues {
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] = [("meta", pushMeta)]

    static func pushMeta(_ s: LuaStack, _ face: Face) throws {
        guard let meta = try face.table(MetaTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: Int32(meta.entries.count))
        for e in meta.entries {
            if let text = meta.text(e.tag) { s.push(text) } else { s.push(bytes: e.data) }
            s.setField(e.tag.description, in: -2)
        }
    }
}
