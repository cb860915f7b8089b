import FontModel

/// post in TTX: its header fields, and for format 2 the glyph names fontTools needs to compile it.
extension TTX {
    /// post: the header fields, and for format 2 the names fontTools needs to compile it.
    static func postTable(_ post: PostTable, _ face: Face) throws -> String {
        var out = try fieldTable(post, "post")
        guard post.version == 0x0002_0000, let stored = try post.glyphNames(count: try face.glyphCount) else { return out }
        out.removeLast("  </post>\n".count)
        out += "    <psNames>\n"
        let unique = try face.glyphNames()
        for (u, p) in zip(unique, stored).sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) where u != p {
            // As fontTools: name= is the unique glyph name, psName= the one post stores.
            out += "      <psName name=\"\(xmlEscaped(u))\" psName=\"\(xmlEscaped(p))\"/>\n"
        }
        out += "    </psNames>\n    <extraNames>\n"
        for n in try post.extraNames() { out += "      <psName name=\"\(xmlEscaped(n))\"/>\n" }
        return out + "    </extraNames>\n  </post>\n"
    }

    static let postConverter = Converter(
        dump: { face in try face.post.map { try postTable($0, face) } },
        fuse: { element, face, apply in
            guard let post = try face.post else {
                throw XMLError("the face has no post table to fuse into", line: element.line, column: element.column)
            }
            try fuseFields(post, element, apply: apply)
        })
}

extension PostTable: TTXTable { static var ttx: TTX.Converter { TTX.postConverter } }
